//! Prints the README's vLLM tables: every logged vLLM 0.19 start-up of
//! the H100 sweep (`data/engines/vllm-0.19-h100.csv`), then every log of
//! other releases and GPUs (`data/engines/vllm-logs.csv`), against the
//! `vllm` method's prediction, predicted / measured.
//!
//! Run: `cargo run -q -p vramfit-core --example vllm_table` (or
//! `make vllm-table`).

use vramfit_core::methods::vllm::{logs, validation};

fn main() {
    let sweep = validation::compare();
    let others = logs::compare_logs();
    match (sweep, others) {
        (Ok(rows), Ok(other)) => {
            println!("vLLM 0.19.0 on an H100 80GB (47 logs):\n");
            print!("{}", validation::markdown(&rows));
            println!("\nOther releases and GPUs ({} logs):\n", other.len());
            print!("{}", logs::logs_markdown(&other));
        }
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("vllm_table: {e}");
            std::process::exit(1);
        }
    }
}
