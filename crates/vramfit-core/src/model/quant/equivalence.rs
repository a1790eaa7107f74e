//! The automata against the reference selection ([`super::reference`]):
//! every catalog and fixture config parses to the same `ModelSpec` either
//! way, and random lists, names and experts agree.

use super::automaton::Automaton;
use super::names::{Naming, Spelling};
use super::pattern::{Dialect, Patterns};
use super::reference::Matcher;
use super::select::REFERENCE;
use crate::model::params::{Group, Tensor};
use crate::model::{parse_config, ConfigError, ModelSpec};

fn parse_both(
    text: &str,
) -> (
    Result<ModelSpec, ConfigError>,
    Result<ModelSpec, ConfigError>,
) {
    let fast = parse_config(text);
    REFERENCE.with(|r| r.set(true));
    let reference = parse_config(text);
    REFERENCE.with(|r| r.set(false));
    (fast, reference)
}

/// Every `.json` under `dir`, depth first, sorted.
fn configs(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            configs(&path, out);
        } else if path.extension().is_some_and(|x| x == "json") {
            out.push(path);
        }
    }
}

#[test]
fn every_catalog_and_fixture_config_reads_as_with_the_reference_selection() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    configs(&root.join("data/configs"), &mut files);
    configs(&root.join("tests/fixtures"), &mut files);
    let (mut quantized, mut per_expert) = (0, 0);
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        if serde_json::from_str::<serde_json::Value>(&text).is_err() {
            continue; // not a config (e.g. a broken-JSON fixture)
        }
        let (fast, reference) = parse_both(&text);
        assert_eq!(fast, reference, "{}", path.display());
        if let Ok(spec) = &fast {
            if let Some(q) = &spec.quantization {
                quantized += 1;
                let lists = q
                    .not_converted
                    .iter()
                    .chain(q.groups.iter().flat_map(|g| &g.targets));
                if spec.moe.is_some() && lists.clone().any(|p| p.contains("expert")) {
                    per_expert += 1;
                }
            }
        }
    }
    // The comparison covers the slow cases it was written for.
    assert!(
        files.len() > 150 && quantized >= 30,
        "{} files, {quantized} quantized",
        files.len()
    );
    assert!(
        per_expert >= 5,
        "{per_expert} configs name experts one by one"
    );
}

/// A deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
    fn string(&mut self, pieces: &[&str], max: usize) -> String {
        (0..self.below(max + 1))
            .map(|_| self.pick(pieces))
            .collect()
    }
}

const NAME_PIECES: [&str; 10] = ["a", "b", ".", "1", "7", "0", "mlp", "experts", "[", "\n"];

/// Patterns in each dialect's syntax, from the same pieces plus that
/// dialect's wildcards.
fn pattern(rng: &mut Rng, dialect: Dialect) -> String {
    let extra: &[&str] = match dialect {
        Dialect::CompressedTensors => &[
            "re:", ".*", ".", "\\d", "(a|b)", "+", "?", "$", "^", "[0-3]", "[^7]", "{1,2}", "\\.",
        ],
        Dialect::ModuleGlob | Dialect::ModelOpt => &["*", "?", "[0-3]", "[!7]", "[]", "[!]"],
        Dialect::Substring => &[],
    };
    let pieces: Vec<&str> = NAME_PIECES
        .iter()
        .copied()
        .chain(extra.iter().copied())
        .collect();
    rng.string(&pieces, 6)
}

const DIALECTS: [Dialect; 4] = [
    Dialect::ModuleGlob,
    Dialect::CompressedTensors,
    Dialect::Substring,
    Dialect::ModelOpt,
];

fn random_list(rng: &mut Rng, dialect: Dialect) -> Option<Patterns> {
    let list: Vec<String> = (0..rng.below(5)).map(|_| pattern(rng, dialect)).collect();
    // A group's `prefix:` modules (every dialect reads them alike).
    let prefixes: Vec<String> = (0..rng.below(3))
        .map(|_| rng.string(&NAME_PIECES, 4))
        .collect();
    Some(
        Patterns::new(dialect, &list, "k")
            .ok()?
            .with_prefixes(prefixes),
    )
}

#[test]
fn automata_agree_with_the_reference_on_random_lists_and_names() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for round in 0..3_000 {
        let dialect = DIALECTS[round % 4];
        let Some(list) = random_list(&mut rng, dialect) else {
            continue;
        };
        let (mut fast, reference) = (list.automaton(), Matcher::new(&list));
        for _ in 0..20 {
            let name = rng.string(&NAME_PIECES, 8);
            assert_eq!(
                fast.covers(&name),
                reference.covers(&name),
                "{dialect:?} {:?} on {name:?}",
                list.list
            );
            checked += 1;
        }
    }
    assert!(checked > 40_000, "{checked}");
}

#[test]
fn expert_sets_agree_with_naming_each_expert() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for round in 0..1_500 {
        let dialect = DIALECTS[round % 4];
        let Some(list) = random_list(&mut rng, dialect) else {
            continue;
        };
        let mut fast = list.automaton();
        let mut one_by_one = list.automaton();
        let reference = Matcher::new(&list);
        for _ in 0..3 {
            let before = rng.string(&NAME_PIECES, 4);
            let after = rng.string(&NAME_PIECES, 4);
            let count = [0, 1, 9, 10, 11, 100, 130][rng.below(7)];
            let bits = fast.covered(&before, &after, count);
            assert_eq!(bits.len() as u64, count.div_ceil(64));
            for e in 0..count {
                let name = format!("{before}{e}{after}");
                let want = reference.covers(&name);
                assert_eq!(
                    one_by_one.covers(&name),
                    want,
                    "{dialect:?} {:?} {name:?}",
                    list.list
                );
                let got = bits[(e / 64) as usize] >> (e % 64) & 1 == 1;
                assert_eq!(got, want, "{dialect:?} {:?} {name:?}", list.list);
            }
        }
    }
}

#[test]
fn a_list_that_names_some_experts_singles_them_out() {
    let list: Vec<String> = ["model.layers.3.mlp.experts.1[0-2].*", "*.experts.7.up_proj"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut a = Patterns::new(Dialect::ModelOpt, &list, "k")
        .unwrap()
        .automaton();
    let bits = a.covered("model.layers.3.mlp.experts.", ".gate_proj", 130);
    let covered: Vec<u64> = (0..130)
        .filter(|e| bits[e / 64] >> (e % 64) & 1 == 1)
        .map(|e| e as u64)
        .collect();
    // `1[0-2].` is two digits and a dot: 10, 11 and 12, not 100 to 129.
    let want: Vec<u64> = (10..=12).collect();
    assert_eq!(covered, want);
    let bits = a.covered("model.layers.3.mlp.experts.", ".up_proj", 20);
    assert_eq!(bits, vec![(1 << 7) | (0b111 << 10)]);
    let none = Automaton::new(&super::automaton::Union::new()).covered("x.", ".y", 70);
    assert_eq!(none, vec![0, 0]);
}

#[test]
fn expert_spellings_split_where_the_index_goes() {
    let types = [
        "mixtral",
        "phimoe",
        "qwen2_moe",
        "qwen3_next",
        "deepseek_v3",
        "llama4",
        "gpt_oss",
        "jamba",
        "granitemoe",
        "qwen3_moe",
    ];
    let modules = [
        "mlp.experts.gate_proj",
        "mlp.experts.up_proj",
        "mlp.experts.down_proj",
        "mlp.experts.gate_up_proj",
    ];
    for model_type in types {
        for multimodal in [false, true] {
            let naming = Naming::new(Some(model_type), multimodal);
            for module in modules {
                let t = Tensor {
                    group: Group::RoutedExperts,
                    layer: Some(12),
                    module,
                    rows: 8,
                    cols: 8,
                    copies: 128,
                    projection: true,
                };
                let spellings = naming.expert_spellings(&t);
                for e in [0, 7, 10, 99, 127] {
                    let expanded: Vec<String> = spellings
                        .iter()
                        .map(|s| match s {
                            Spelling::Fixed(name) => name.clone(),
                            Spelling::Indexed(before, after) => format!("{before}{e}{after}"),
                        })
                        .collect();
                    assert_eq!(
                        expanded,
                        naming.text_names(&t, Some(e)),
                        "{model_type} {module}"
                    );
                }
            }
        }
    }
}
