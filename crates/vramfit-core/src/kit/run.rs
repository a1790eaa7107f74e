//! The runner: the reference kit of this version, and a kit checked
//! against it, example by example.

use super::examples::seed_examples;
use super::{Citation, ComponentBytes, Expected, Kit, KitExample, KitFailure, SCHEMA};
use crate::methods::MethodId;
use crate::report::APP_VERSION;
use crate::request::Request;
use crate::scenario::{ModelRef, ScenarioInput};

/// The reference kit of this version: every seed example, with the bytes
/// this version computes for it.
pub fn reference() -> Kit {
    let mut examples: Vec<KitExample> = Vec::new();
    for (name, source, inputs) in seed_examples() {
        if let Some(example) = example(name.to_string(), source.clone(), inputs.clone()) {
            examples.push(example);
        }
        // The same inputs under every other method that estimates them.
        for method in MethodId::ALL {
            if method == inputs.method {
                continue;
            }
            let other = Request::new(method, inputs.scenario.clone());
            if let Some(example) = example(format!("{name}@{}", method.id()), source.clone(), other)
            {
                examples.push(example);
            }
        }
    }
    // A method that no seed example covers still gets one example.
    for method in MethodId::ALL {
        if examples.iter().any(|e| e.expected.method == method) {
            continue;
        }
        let source = Citation {
            seed: "vramfit".into(),
            quote: format!("the default scenario under method {}", method.id()),
            note: "no seed gives a worked example for this method".into(),
        };
        let candidates = [
            ScenarioInput::default(),
            ScenarioInput {
                mode: crate::scenario::Mode::Full,
                ..ScenarioInput::default()
            },
            ScenarioInput {
                model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
                ..ScenarioInput::default()
            },
        ];
        if let Some(found) = candidates.into_iter().find_map(|base| {
            example(
                format!("default@{}", method.id()),
                source.clone(),
                Request::new(method, base),
            )
        }) {
            examples.push(found);
        }
    }
    Kit {
        schema: SCHEMA.to_string(),
        app_version: APP_VERSION.to_string(),
        examples,
    }
}

/// An example with the bytes its method computes, if the method estimates it.
fn example(name: String, source: Citation, inputs: Request) -> Option<KitExample> {
    let result = inputs.run().ok()?;
    Some(KitExample {
        name,
        source,
        expected: Expected {
            method: result.method,
            total_bytes: result.total_bytes,
            components: ComponentBytes::of(&result),
            usable_bytes: Some(result.verdict.usable_bytes),
        },
        inputs,
    })
}

/// Reruns every example of `kit` and lists those that do not reproduce.
pub fn check(kit: &Kit) -> Vec<KitFailure> {
    let mut failures = Vec::new();
    if kit.schema != SCHEMA {
        failures.push(KitFailure {
            example: "(kit)".into(),
            problems: vec![format!("schema expected {SCHEMA}, got {}", kit.schema)],
        });
    }
    failures.extend(kit.examples.iter().filter_map(check_example));
    failures
}

/// The differences between an example and what this version computes.
pub fn check_example(example: &KitExample) -> Option<KitFailure> {
    let fail = |problems: Vec<String>| {
        Some(KitFailure {
            example: example.name.clone(),
            problems,
        })
    };
    let result = match example.inputs.run() {
        Ok(result) => result,
        Err(why) => return fail(vec![format!("inputs not estimated: {why}")]),
    };
    let expected = &example.expected;
    let mut problems = Vec::new();
    if result.method != expected.method {
        problems.push(format!(
            "method expected {}, got {}",
            expected.method.id(),
            result.method.id()
        ));
    }
    if result.total_bytes != expected.total_bytes {
        problems.push(format!(
            "total_bytes expected {}, got {}",
            expected.total_bytes.get(),
            result.total_bytes.get()
        ));
    }
    if let Some(usable) = expected.usable_bytes {
        if result.verdict.usable_bytes != usable {
            problems.push(format!(
                "usable_bytes expected {}, got {}",
                usable.get(),
                result.verdict.usable_bytes.get()
            ));
        }
    }
    let got = ComponentBytes::of(&result);
    for (name, bytes) in &expected.components.0 {
        match got.0.iter().find(|(n, _)| n == name) {
            Some((_, actual)) if actual == bytes => {}
            Some((_, actual)) => {
                problems.push(format!(
                    "{name} expected {}, got {}",
                    bytes.get(),
                    actual.get()
                ));
            }
            None => problems.push(format!(
                "{name} expected {}, got no such component",
                bytes.get()
            )),
        }
    }
    for (name, actual) in &got.0 {
        if !expected.components.0.iter().any(|(n, _)| n == name) {
            problems.push(format!("{name} not expected, got {}", actual.get()));
        }
    }
    if problems.is_empty() {
        None
    } else {
        fail(problems)
    }
}

/// Reads a kit from JSON and checks it. Examples that cannot be read are
/// failures of their own (one per example), so a kit written by another
/// version is still checked as far as it can be. `Err` only when the text
/// is not a kit at all.
pub fn check_json(text: &str) -> Result<(usize, Vec<KitFailure>), String> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not a JSON document: {e}"))?;
    let schema = value.get("schema").and_then(|s| s.as_str()).unwrap_or("");
    let Some(examples) = value.get("examples").and_then(|e| e.as_array()) else {
        return Err(format!(
            "not a reference kit (expected schema {SCHEMA} with an `examples` list)"
        ));
    };
    let mut failures = Vec::new();
    if schema != SCHEMA {
        failures.push(KitFailure {
            example: "(kit)".into(),
            problems: vec![format!("schema expected {SCHEMA}, got {schema:?}")],
        });
    }
    for (index, raw) in examples.iter().enumerate() {
        match serde_json::from_value::<KitExample>(raw.clone()) {
            Ok(example) => failures.extend(check_example(&example)),
            Err(e) => failures.push(KitFailure {
                example: raw
                    .get("name")
                    .and_then(|n| n.as_str())
                    .map_or_else(|| format!("#{}", index + 1), str::to_string),
                problems: vec![format!("cannot be read: {e}")],
            }),
        }
    }
    Ok((examples.len(), failures))
}
