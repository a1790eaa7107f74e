//! Prints the README's validation table: predicted against measured for
//! every recorded row, with the error, and the max and mean absolute error.
//!
//! Run: `cargo run -q -p vramfit-core --example allocator_table`.

fn main() {
    match vramfit_core::validation::compare() {
        Ok(rows) => print!("{}", vramfit_core::validation::markdown(&rows)),
        Err(e) => {
            eprintln!("allocator_table: {e}");
            std::process::exit(1);
        }
    }
}
