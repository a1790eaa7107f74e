//! Prints the README's llama.cpp tables: every size llama.cpp printed
//! (`data/engines/llamacpp.md`) and every load log
//! (`data/engines/llamacpp-logs.csv`) against the `llamacpp` method's
//! prediction.
//!
//! Run: `cargo run -q -p vramfit-core --example llamacpp_table`.

use vramfit_core::methods::llamacpp::{logs, validation};

fn main() {
    let sizes = validation::compare().map(|rows| validation::markdown(&rows));
    let loads = logs::compare().map(|rows| logs::markdown(&rows));
    match (sizes, loads) {
        (Ok(sizes), Ok(loads)) => print!("{sizes}\n{loads}"),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("llamacpp_table: {e}");
            std::process::exit(1);
        }
    }
}
