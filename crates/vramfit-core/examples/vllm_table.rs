//! Prints the README's vLLM table: every logged vLLM 0.19 start-up
//! (`data/engines/vllm-0.19-h100.csv`) against the `vllm` method's
//! prediction, predicted / measured, with the worst error of each column.
//!
//! Run: `cargo run -q -p vramfit-core --example vllm_table` (or
//! `make vllm-table`).

fn main() {
    match vramfit_core::methods::vllm::validation::compare() {
        Ok(rows) => print!(
            "{}",
            vramfit_core::methods::vllm::validation::markdown(&rows)
        ),
        Err(e) => {
            eprintln!("vllm_table: {e}");
            std::process::exit(1);
        }
    }
}
