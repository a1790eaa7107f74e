//! `vramfit kit` and `vramfit check KIT.json`: the reference kit of worked
//! examples, and rerunning a kit to see whether this version reproduces it.

use vramfit_core::kit;

/// `vramfit kit`: the reference kit as JSON.
pub fn print_kit() -> String {
    kit::reference().to_json()
}

/// `vramfit check KIT.json`: `Ok` with a one-line summary when every example
/// reproduces; otherwise `Err` with a summary line and one line per failing
/// example (the caller prints it and exits non-zero).
pub fn run(path: &str) -> Result<String, String> {
    let text = if path == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        text
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?
    };
    let (count, failures) = kit::check_json(&text).map_err(|e| format!("{path}: {e}"))?;
    summary(count, &failures)
}

/// The text of a check's outcome.
fn summary(count: usize, failures: &[kit::KitFailure]) -> Result<String, String> {
    if failures.is_empty() {
        let plural = if count == 1 { "" } else { "s" };
        return Ok(format!(
            "ok: {count} example{plural} reproduced by vramfit {}\n",
            vramfit_core::report::APP_VERSION
        ));
    }
    let mut out = format!(
        "{} of {count} examples do not reproduce with vramfit {}",
        failures.len(),
        vramfit_core::report::APP_VERSION
    );
    for failure in failures {
        out.push('\n');
        out.push_str(&failure.to_string());
    }
    Err(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{parse, Command};
    use vramfit_cli::line;
    use vramfit_core::request::Request;
    use vramfit_core::scenario::ScenarioInput;

    #[test]
    fn reference_kit_checks_clean() {
        let text = print_kit();
        let (count, failures) = kit::check_json(&text).unwrap();
        let ok = summary(count, &failures).unwrap();
        assert!(
            ok.starts_with(&format!("ok: {count} examples reproduced")),
            "{ok}"
        );
    }

    #[test]
    fn failures_are_one_line_each_after_a_summary() {
        let mut reference = kit::reference();
        reference.examples[0].expected.total_bytes = vramfit_core::units::Bytes(1);
        let failures = kit::check(&reference);
        let err = summary(reference.examples.len(), &failures).unwrap_err();
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("1 of "), "{err}");
        assert!(
            lines[1].starts_with("FAIL seed004-8b-fp16-8k-24gb: total_bytes expected 1, got "),
            "{err}"
        );
    }

    /// The command line the lesson shows reproduces the example's estimate.
    #[test]
    fn cli_command_of_every_kit_example_reproduces_it() {
        let mut inputs: Vec<Request> = kit::reference()
            .examples
            .into_iter()
            .map(|e| e.inputs)
            .collect();
        let mut odd = ScenarioInput {
            sequences: 4,
            gpus: 4,
            tp: Some(1),
            grad_checkpoint: true,
            lora_dropout: false,
            use_cache: false,
            kv_bytes: 1.0,
            overhead_pct: 17.5,
            ..ScenarioInput::default()
        };
        odd.set_capacity_gib(80.0);
        inputs.push(Request {
            scenario: odd,
            ..Request::default()
        });
        for input in inputs {
            let args = line::args(&input);
            let Ok(Command::Estimate { input: parsed, .. }) = parse(&args) else {
                panic!("`{}` does not parse", line::command(&input));
            };
            assert_eq!(parsed.run(), input.run(), "{}", line::command(&input));
            assert_eq!(*parsed, input, "{}", line::command(&input));
        }
    }
}
