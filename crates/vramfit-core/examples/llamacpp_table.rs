//! Prints the README's llama.cpp table: every size llama.cpp printed
//! (`data/engines/llamacpp.md`) against the `llamacpp` method's prediction.
//!
//! Run: `cargo run -q -p vramfit-core --example llamacpp_table`.

fn main() {
    match vramfit_core::methods::llamacpp::validation::compare() {
        Ok(rows) => print!(
            "{}",
            vramfit_core::methods::llamacpp::validation::markdown(&rows)
        ),
        Err(e) => {
            eprintln!("llamacpp_table: {e}");
            std::process::exit(1);
        }
    }
}
