//! The reference kit (`schema: "vramfit-kit/1"`): every worked example of
//! the seeds, with its inputs and the bytes vramfit computes for it, so that
//! anyone can rerun the examples and see whether a version still reproduces
//! them (`vramfit kit > kit.json`, later `vramfit check kit.json`).
//!
//! The examples are the seeds' own: seed 004's three inference examples,
//! seed 000's `estimateVRAM` example and its training counterpart, seed
//! 003's command-line example for the allocator; each also under every
//! other method that estimates it, and one example for any method in
//! [`MethodId::ALL`] that no seed example covers. Expected values are the
//! exact integer bytes of the method's result. Where vramfit reads a seed in
//! a way that moves its stated figure, the example says so in `note`.
//!
//! ```
//! use vramfit_core::kit;
//! let reference = kit::reference();
//! assert_eq!(reference.schema, "vramfit-kit/1");
//! assert!(kit::check(&reference).is_empty());
//! ```

use crate::methods::{MethodId, MethodResult};
use crate::report::APP_VERSION;
use crate::request::Request;
use crate::scenario::{Field, ModelRef, Precision, ScenarioInput};
use crate::units::Bytes;
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Version of the kit layout; bumped only on a breaking change.
pub const SCHEMA: &str = "vramfit-kit/1";

/// The whole kit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Kit {
    pub schema: String,
    /// The vramfit version that computed `expected`.
    pub app_version: String,
    pub examples: Vec<KitExample>,
}

/// One worked example: where it comes from, what goes in, what comes out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KitExample {
    /// Stable name (`seed004-8b-fp16-8k-24gb`, `...@lesson` for the same
    /// inputs under another method).
    pub name: String,
    pub source: Citation,
    /// The method and the complete scenario, as the app exports them.
    pub inputs: Request,
    pub expected: Expected,
}

/// Where an example comes from: the seed and its words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    /// Seed number (`"004"`), or `"vramfit"` for an example of our own.
    pub seed: String,
    /// The sentence or command of the seed that the example reproduces.
    pub quote: String,
    /// How vramfit reads the seed where the reading matters.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// What the method must give for the inputs, in exact bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expected {
    pub method: MethodId,
    pub total_bytes: Bytes,
    /// Every component, in the method's order.
    pub components: ComponentBytes,
}

/// Named byte counts that keep their order in JSON (an object, as in the
/// `vramfit/1` document).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ComponentBytes(pub Vec<(String, Bytes)>);

impl Serialize for ComponentBytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, bytes) in &self.0 {
            map.serialize_entry(name, bytes)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for ComponentBytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Ordered;
        impl<'de> Visitor<'de> for Ordered {
            type Value = ComponentBytes;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of component names to byte counts")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((name, bytes)) = map.next_entry::<String, Bytes>()? {
                    out.push((name, bytes));
                }
                Ok(ComponentBytes(out))
            }
        }
        deserializer.deserialize_map(Ordered)
    }
}

impl ComponentBytes {
    fn of(result: &MethodResult) -> ComponentBytes {
        ComponentBytes(
            result
                .components
                .0
                .iter()
                .map(|c| (c.term.id().to_string(), c.bytes))
                .collect(),
        )
    }
}

impl Kit {
    /// The kit as pretty-printed JSON, ending with a newline.
    pub fn to_json(&self) -> String {
        // Plain structs of strings and integers: serializing cannot fail.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }
}

/// One example that does not reproduce, with every difference found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KitFailure {
    /// The example's name (`#3` when it has none).
    pub example: String,
    /// What differs, each as `what: expected X, got Y`.
    pub problems: Vec<String>,
}

impl fmt::Display for KitFailure {
    /// One line: `FAIL name: problem; problem`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FAIL {}: {}", self.example, self.problems.join("; "))
    }
}

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
        },
        inputs,
    })
}

/// The seeds' worked examples: name, source, inputs.
fn seed_examples() -> Vec<(&'static str, Citation, Request)> {
    let seed = |seed: &str, quote: &str, note: &str| Citation {
        seed: seed.to_string(),
        quote: quote.to_string(),
        note: note.to_string(),
    };
    let quick = |scenario| Request::new(MethodId::Quick, scenario);
    let lesson_example = ScenarioInput {
        params_b: 7.0,
        context: 4096,
        ..ScenarioInput::default()
    };
    let mut lesson_inference = lesson_example.clone();
    lesson_inference.set_capacity_gib(24.0);
    let lesson_training = ScenarioInput {
        mode: crate::scenario::Mode::Full,
        ..lesson_inference.clone()
    };
    let mut allocator = ScenarioInput {
        mode: crate::scenario::Mode::Lora,
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
        context: 4096,
        lora_rank: 16,
        precision: Precision::Pure,
        ..ScenarioInput::default()
    };
    allocator.set_gpu("RTX 3090");
    let mut planner_gqa = ScenarioInput {
        ..ScenarioInput::default()
    };
    planner_gqa.planner.hidden_size = Some(4096);
    planner_gqa.planner.vocab_size = Some(128_000);
    let planner_mla = ScenarioInput {
        model: Some(ModelRef::Catalog("deepseek-ai/DeepSeek-V2-Lite".into())),
        context: 4096,
        gpus: 2,
        tp: 2,
        ..ScenarioInput::default()
    };
    let mut planner_residency = ScenarioInput {
        context: 4096,
        gpus: 4,
        users: 100,
        batch: 8,
        ..planner_gqa.clone()
    };
    planner_residency.planner.machines = 2;
    let range_llama = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())),
        ..ScenarioInput::default()
    };
    let mut range_quant = range_llama.clone();
    range_quant.set_weight_format(crate::scenario::WeightFormat::Q4KM);
    let range_tp = ScenarioInput {
        model: Some(ModelRef::Catalog("meta-llama/Llama-3.1-70B".into())),
        gpus: 2,
        gpu_memory_gb: 80.0,
        ..range_llama.clone()
    };
    let range_qlora = ScenarioInput {
        mode: crate::scenario::Mode::Qlora,
        context: 4096,
        ..range_llama.clone()
    };
    vec![
        (
            "seed004-8b-fp16-8k-24gb",
            seed(
                "004",
                "Un modelo de 8B con 32 capas, 8 cabezas KV y una dimensión de cabeza de 128, en FP16 con un contexto de 8.192 tokens: los pesos ocupan 16 GB y la caché KV 1,07 GB (131 KB por token). Con un 10 % de sobrecarga son unos 18,8 GB, que caben en una sola GPU de 24 GB.",
                "",
            ),
            quick(ScenarioInput::default()),
        ),
        (
            "seed004-8b-4bit-8k-8gb",
            seed(
                "004",
                "Un modelo de 8 mil millones de parámetros en 4 bits necesita unos 5,6 GB con un contexto de 8K, así que cabe en una GPU de 8 GB",
                "the KV cache stays FP16; only the weights go to 4 bits",
            ),
            quick(ScenarioInput {
                weight_bits: 4.0,
                gpu_memory_gb: 8.0,
                ..ScenarioInput::default()
            }),
        ),
        (
            "seed004-70b-4bit-48gb",
            seed(
                "004",
                "Un modelo de 70 mil millones de parámetros en 4 bits necesita unos 39,7 GB, que caben en una sola GPU de 48 GB.",
                "the seed does not restate the cache inputs; 39.7 GB comes out only with the 8B example's cache (32 layers, 8 KV heads, head dim 128, FP16, 8,192 tokens)",
            ),
            quick(ScenarioInput {
                params_b: 70.0,
                weight_bits: 4.0,
                gpu_memory_gb: 48.0,
                ..ScenarioInput::default()
            }),
        ),
        (
            "seed000-7b-inference-4k-24gib",
            seed(
                "000",
                "const result=estimateVRAM({mode:'inference',params:7,weightBits:16,layers:32,kvHeads:8,headDim:128,sequence:4096,batch:1,kvBytes:2,runtime:2,activation:4,margin:15,capacity:24}); console.log(result.components.cache); // 0.5 GiB",
                "the seed's components.cache is kv_cache here; capacity 24 GiB = 25,769,803,776 bytes",
            ),
            Request::new(MethodId::Lesson, lesson_inference),
        ),
        (
            "seed000-7b-full-training",
            seed(
                "000",
                "El entrenamiento completo usa 18 bytes/parámetro como referencia AdamW de precisión mixta, más tus reservas.",
                "training does not add the weights again (the 18 bytes hold the working copy) and has no KV cache",
            ),
            Request::new(MethodId::Lesson, lesson_training),
        ),
        (
            "seed003-llama-3.1-8b-lora16-pure-4k-rtx3090",
            seed(
                "003",
                "$ vramcalc meta-llama/Llama-3.1-8B --train --lora 16 --precision pure --seq 4096 --gpu \"RTX 3090\"",
                "weights 16.12, gradients 0.05, optimizer 0.11, step_workspace 0.05 and overhead 0.75 GB match the seed; activations are derived from the code (docs/allocator-derivation.md), 36.41 GB where the seed printed 36.92",
            ),
            Request::new(MethodId::Allocator, allocator),
        ),
        (
            "seed001-llama-3.1-8b-bf16-8k-24gb",
            seed(
                "001",
                "Bereik bij serveren: laag = gewichten + KV-cache + 1 GB; hoog = 1.2 × gewichten + KV-cache + 1 GB",
                "worked by hand in docs/methods/range.md: low 18,134,264,320, high 21,346,368,819 bytes",
            ),
            Request::new(MethodId::Range, range_llama),
        ),
        (
            "seed001-llama-3.1-8b-q4_k_m",
            seed(
                "001",
                "8-bit en 4-bit formaten houden de embeddings en de output-head op 16 bits.",
                "Q4_K_M at 4.89 bits for the body, 16 bits for embeddings and head",
            ),
            Request::new(MethodId::Range, range_quant),
        ),
        (
            "seed001-llama-3.1-70b-2x80gb",
            seed(
                "001",
                "Met meerdere GPU's worden gewichten en cache gelijk verdeeld (tensor parallelism) en telt de runtime-overhead op elke GPU mee.",
                "",
            ),
            Request::new(MethodId::Range, range_tp),
        ),
        (
            "seed001-llama-3.1-8b-qlora-4k",
            seed(
                "001",
                "QLoRA slaat ze op in NF4 op 4.127 bits. Beide trainen adapters met rank 16 op de attention- en dense-MLP-projecties",
                "",
            ),
            Request::new(MethodId::Range, range_qlora),
        ),
        (
            "seed002-gqa-8b-8k-24gb",
            seed(
                "002",
                "Pruebas numéricas automatizadas: ejemplo GQA, precisión mixta, MLA, residencia, ...",
                "custom model: 8 × 10⁹ parameters, H 4,096, V 128,000; total 21,095,009,690 bytes (docs/methods/planner.md)",
            ),
            Request::new(MethodId::Planner, planner_gqa),
        ),
        (
            "seed002-mla-deepseek-v2-lite-tp2",
            seed(
                "002",
                "MLA comprimida se presupuesta replicada por rango TP.",
                "27 layers × (512 + 64) × 4,096 tokens × 2 bytes = 127,401,984 bytes of latent cache on each GPU",
            ),
            Request::new(MethodId::Planner, planner_mla),
        ),
        (
            "seed002-residency-2x4-gpus-100-users",
            seed(
                "002",
                "réplicas = equipos × GPU/(TP × PP); solicitudes/réplica = techo(usuarios/réplicas); activas = mínimo(lote, solicitudes/réplica).",
                "8 replicas, 13 requests each, 8 active; KV reserved for all 13",
            ),
            Request::new(MethodId::Planner, planner_residency),
        ),
    ]
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

/// The planner knobs that have CLI flags, where they differ from the
/// defaults: a custom model's hidden size and vocabulary, and machines.
fn planner_args(
    knobs: &crate::scenario::PlannerKnobs,
    default: &crate::scenario::PlannerKnobs,
) -> Vec<String> {
    let mut args = Vec::new();
    for (flag, value) in [
        ("--hidden-size", knobs.hidden_size),
        ("--vocab-size", knobs.vocab_size),
    ] {
        if let Some(v) = value {
            args.push(flag.to_string());
            args.push(v.to_string());
        }
    }
    if knobs.machines != default.machines {
        args.push("--machines".into());
        args.push(knobs.machines.to_string());
    }
    args
}

/// The arguments of `vramfit` that reproduce `input`'s estimate: the
/// subcommand, the model, every value that differs from the defaults, then
/// the method and the mode (always named, so that nothing depends on the
/// command line's own choice of method). A pasted `config.json` is named
/// `config.json`: save it under that name next to where the command runs.
///
/// ```
/// use vramfit_core::{kit, request::Request, scenario::ScenarioInput};
/// let scenario = ScenarioInput { params_b: 70.0, weight_bits: 4.0, gpu_memory_gb: 48.0, ..ScenarioInput::default() };
/// let input = Request { scenario, ..Request::default() };
/// assert_eq!(
///     kit::cli_command(&input),
///     "vramfit estimate --params 70 --weight-bits 4 --capacity-gb 48 --method quick --mode inference"
/// );
/// ```
pub fn cli_args(request: &Request) -> Vec<String> {
    let input = &request.scenario;
    let default = ScenarioInput::default();
    let mut args = vec!["estimate".to_string()];
    match &input.model {
        Some(ModelRef::Catalog(id)) => args.push(id.clone()),
        Some(ModelRef::Config(_)) => args.push("config.json".into()),
        None => {}
    }
    // `--lora` comes last: it also selects LoRA mode.
    for field in Field::ALL.into_iter().filter(|f| *f != Field::LoraRank) {
        let flag = field.flag();
        let replaced = (input.model.is_some() && Field::SHAPE.contains(&field))
            || (field == Field::WeightBits && input.weight_format.is_some())
            || (field == Field::GpuMemoryGb && input.gpu.is_some());
        let value = input.get(field);
        if !replaced && value != default.get(field) {
            args.push(flag.to_string());
            args.push(format!("{value}"));
        }
    }
    if let Some(format) = input.weight_format {
        args.push("--quant".into());
        args.push(format.id().into());
    }
    if let Some(gpu) = &input.gpu {
        args.push("--gpu".into());
        args.push(gpu.clone());
    }
    if input.precision != default.precision {
        args.push("--precision".into());
        args.push(input.precision.id().into());
    }
    if input.grad_checkpoint {
        args.push("--grad-checkpoint".into());
    }
    if input.optimizer != default.optimizer {
        args.push("--optimizer".into());
        args.push(input.optimizer.id().into());
    }
    if input.attn != default.attn {
        args.push("--attn".into());
        args.push(input.attn.id().into());
    }
    if !input.lora_dropout {
        args.push("--no-lora-dropout".into());
    }
    args.extend(planner_args(&input.planner, &default.planner));
    // `--lora R` also selects LoRA mode, so the mode comes after it.
    if input.lora_rank != default.lora_rank {
        args.push("--lora".into());
        args.push(input.lora_rank.to_string());
    }
    args.push("--method".into());
    args.push(request.method.id().into());
    args.push("--mode".into());
    args.push(input.mode.id().into());
    args
}

/// [`cli_args`] as one shell command line, quoted where needed.
pub fn cli_command(input: &Request) -> String {
    let mut line = String::from("vramfit");
    for arg in cli_args(input) {
        line.push(' ');
        line.push_str(&shell_quote(&arg));
    }
    line
}

/// `arg` as a POSIX shell word.
fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@,+%".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::WeightFormat;

    fn by_name<'a>(kit: &'a Kit, name: &str) -> &'a KitExample {
        kit.examples
            .iter()
            .find(|e| e.name == name)
            .unwrap_or_else(|| panic!("no example {name}"))
    }

    #[test]
    fn reference_kit_reproduces() {
        let kit = reference();
        assert_eq!(kit.schema, SCHEMA);
        assert_eq!(kit.app_version, APP_VERSION);
        assert_eq!(check(&kit), []);
    }

    #[test]
    fn reference_kit_holds_the_seeds_golden_bytes() {
        let kit = reference();
        // Seed 004 (methodology.md, quick).
        let e = by_name(&kit, "seed004-8b-fp16-8k-24gb");
        assert_eq!(e.expected.method, MethodId::Quick);
        assert_eq!(e.expected.total_bytes, 18_781_116_006);
        assert_eq!(
            e.expected.components.0,
            [
                ("weights".to_string(), Bytes(16_000_000_000)),
                ("kv_cache".to_string(), Bytes(1_073_741_824)),
                ("overhead".to_string(), Bytes(1_707_374_182)),
            ]
        );
        assert_eq!(
            by_name(&kit, "seed004-8b-4bit-8k-8gb").expected.total_bytes,
            5_581_116_006
        );
        assert_eq!(
            by_name(&kit, "seed004-70b-4bit-48gb").expected.total_bytes,
            39_681_116_006
        );
        // Seed 001 (docs/methods/range.md) and seed 002 (docs/methods/planner.md).
        let e = by_name(&kit, "seed001-llama-3.1-8b-bf16-8k-24gb");
        assert_eq!(e.expected.method, MethodId::Range);
        assert_eq!(e.expected.total_bytes, 21_346_368_819);
        assert_eq!(
            by_name(&kit, "seed002-gqa-8b-8k-24gb").expected.total_bytes,
            21_095_009_690
        );
        let mla = by_name(&kit, "seed002-mla-deepseek-v2-lite-tp2");
        let kv = mla
            .expected
            .components
            .0
            .iter()
            .find(|(n, _)| n == "kv_cache");
        assert_eq!(kv.map(|(_, b)| *b), Some(Bytes(127_401_984)));
        // Seed 000 (methodology.md, lesson).
        let e = by_name(&kit, "seed000-7b-inference-4k-24gib");
        assert_eq!(e.expected.method, MethodId::Lesson);
        assert_eq!(e.expected.total_bytes, 24_126_220_134);
        assert_eq!(e.inputs.scenario.gpu_memory_gb * 1e9, 25_769_803_776.0);
        assert_eq!(
            by_name(&kit, "seed000-7b-full-training")
                .expected
                .total_bytes,
            152_308_818_586
        );
        // Seed 003 (allocator): the terms the seed prints, in GB.
        let e = by_name(&kit, "seed003-llama-3.1-8b-lora16-pure-4k-rtx3090");
        assert_eq!(e.expected.method, MethodId::Allocator);
        let gb2 = |name: &str| {
            let (_, bytes) = e
                .expected
                .components
                .0
                .iter()
                .find(|(n, _)| n == name)
                .unwrap();
            bytes.display(crate::units::DisplayUnit::Gb)
        };
        assert_eq!(gb2("weights"), "16.12 GB");
        assert_eq!(gb2("overhead"), "0.75 GB");
        // The same 8B FP16 example under seed 000's method (methodology.md).
        assert_eq!(
            by_name(&kit, "seed004-8b-fp16-8k-24gb@lesson")
                .expected
                .total_bytes,
            27_043_621_683
        );
    }

    #[test]
    fn every_method_has_an_example() {
        let kit = reference();
        for method in MethodId::ALL {
            assert!(
                kit.examples.iter().any(|e| e.expected.method == method),
                "{}",
                method.id()
            );
        }
        // Names are unique.
        let mut names: Vec<&str> = kit.examples.iter().map(|e| e.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), kit.examples.len());
    }

    #[test]
    fn kit_round_trips_through_json_in_order() {
        let kit = reference();
        let back: Kit = serde_json::from_str(&kit.to_json()).unwrap();
        assert_eq!(back, kit);
        assert_eq!(
            check_json(&kit.to_json()).unwrap(),
            (kit.examples.len(), vec![])
        );
    }

    #[test]
    fn a_tampered_kit_fails_with_one_clear_line_per_example() {
        let mut kit = reference();
        kit.examples[0].expected.total_bytes = kit.examples[0].expected.total_bytes + Bytes(1);
        kit.examples[0].expected.components.0[1].1 = Bytes(1);
        kit.examples[1].inputs.scenario.layers = 0;
        let failures = check(&kit);
        assert_eq!(failures.len(), 2);
        assert_eq!(
            failures[0].to_string(),
            "FAIL seed004-8b-fp16-8k-24gb: total_bytes expected 18781116007, got 18781116006; kv_cache expected 1, got 1073741824"
        );
        assert_eq!(
            failures[1].to_string(),
            format!(
                "FAIL {}: inputs not estimated: layers must be between 1 and 1024",
                kit.examples[1].name
            )
        );
        assert!(!failures[0].to_string().contains('\n'));
    }

    #[test]
    fn unreadable_examples_and_schema_are_failures_not_errors() {
        let mut value: serde_json::Value = serde_json::from_str(&reference().to_json()).unwrap();
        value["schema"] = "vramfit-kit/9".into();
        value["examples"][2]["inputs"]["method"] = "astrology".into();
        let (count, failures) = check_json(&value.to_string()).unwrap();
        assert_eq!(count, reference().examples.len());
        assert_eq!(failures.len(), 2);
        assert_eq!(
            failures[0].to_string(),
            "FAIL (kit): schema expected vramfit-kit/1, got \"vramfit-kit/9\""
        );
        assert!(
            failures[1].to_string().contains("cannot be read"),
            "{}",
            failures[1]
        );
        assert!(check_json("[1, 2]").is_err());
        assert!(check_json("{not json").is_err());
    }

    #[test]
    fn cli_command_names_only_what_differs() {
        let kit = reference();
        assert_eq!(
            cli_command(&by_name(&kit, "seed003-llama-3.1-8b-lora16-pure-4k-rtx3090").inputs),
            "vramfit estimate meta-llama/Llama-3.1-8B --seq 4096 --gpu 'NVIDIA GeForce RTX 3090' --method allocator --mode lora"
        );
        assert_eq!(
            cli_command(&by_name(&kit, "seed000-7b-inference-4k-24gib").inputs),
            "vramfit estimate --params 7 --seq 4096 --capacity-gb 25.769803776 --method lesson --mode inference"
        );
        let mut input = ScenarioInput {
            lora_rank: 8,
            grad_checkpoint: true,
            ..ScenarioInput::default()
        };
        input.set_weight_format(WeightFormat::Q4KM);
        assert_eq!(
            cli_command(&Request::new(MethodId::Quick, input)),
            "vramfit estimate --quant q4_k_m --grad-checkpoint --lora 8 --method quick --mode inference"
        );
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
