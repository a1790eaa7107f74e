//! The coverage list by architecture, rendered from the readers
//! themselves so that it cannot drift (a test compares it with
//! `docs/coverage.md`).

use super::wrappers::{REFUSED_TYPES, WRAPPERS};
use super::{all, Architecture};

/// `docs/coverage.md`: every model type read, what is counted, where the
/// rules come from; the multimodal wrappers whose text model is read; what
/// is refused.
pub(crate) fn coverage_markdown() -> String {
    let mut out = String::new();
    out.push_str(
        "# Which config.json files vramfit reads\n\n\
         Generated from the readers in `crates/vramfit-core/src/model/arch/`; a test \
         (`coverage_list_is_current`) fails when this file and the readers differ. Regenerate \
         with `VRAMFIT_BLESS=1 cargo test -p vramfit-core coverage_list_is_current`.\n\n\
         Every `model_type` below is read **exactly**: its reader follows that model type's \
         `transformers` code (configuration defaults, tie default and key names; the tensors \
         of its modeling code), or the checkpoint's own code where `transformers` has none. \
         Parameters are counted tensor by tensor; the KV cache follows each layer's kind.\n\n\
         Any other `model_type` is **refused** with an error naming it (`unknown_model_type`), \
         and so is a per-layer key a reader does not know (`unknown_layer_pattern`): a list \
         with one entry per layer, or a list or pattern under a key naming layers or blocks. \
         `parse_config_approximate` reads an unknown model type as a Llama-style decoder and \
         says so (`\"reading\": \"approximate\"`, with the keys it assumed).\n\n",
    );
    out.push_str("## Model types read exactly\n\n");
    out.push_str("| model_type | family | reading | what is counted | source |\n");
    out.push_str("|---|---|---|---|---|\n");
    let mut rows: Vec<&Architecture> = all().collect();
    rows.sort_by_key(|a| a.model_types.first().copied().unwrap_or(""));
    for a in rows {
        let types = a
            .model_types
            .iter()
            .map(|t| format!("`{t}`"))
            .collect::<Vec<_>>()
            .join(", ");
        out.push_str(&format!(
            "| {types} | {} | exact | {} | {} |\n",
            family_name(a),
            one_line(a.counts),
            one_line(a.source)
        ));
    }
    out.push_str(
        "\n## Multimodal wrappers\n\n\
         The text model of these wrappers is read exactly by the reader of its own \
         `model_type` (the wrapper's default when the text config names none); the counts \
         above are the text model's. The vision tower and projector are counted apart \
         (`vision`, `checkpoint` in the spec; see `docs/quantization.md`), or flagged as not \
         counted.\n\n",
    );
    out.push_str("| wrapper model_type | text config key | default text model_type | source |\n");
    out.push_str("|---|---|---|---|\n");
    for w in &WRAPPERS {
        // A bare class name is transformers'; a longer source says whose.
        let source = match w.source.contains(' ') {
            true => w.source.to_string(),
            false => format!("transformers `{}`", w.source),
        };
        out.push_str(&format!(
            "| `{}` | `{}` | `{}` | {source} |\n",
            w.outer, w.key, w.text
        ));
    }
    out.push_str(
        "\n## Refused\n\n\
         - any `model_type` not listed above (for example `mllama`, whose text model has \
         cross-attention layers, or encoder-decoder models), naming it;\n\
         - a config without `model_type` whose first `architectures` class is not one of the \
         readers' classes;\n\
         - a per-layer key the model type's reader does not know;\n\
         - within a known model type, layouts its reader does not follow: GPT-2 and \
         GPT-BigCode with `add_cross_attention`, the first-generation ChatGLM-6B \
         (`inner_hidden_size`), DBRX with a tied head, Nemotron-NAS blocks with `sparsify` or \
         other unknown settings.\n",
    );
    if !REFUSED_TYPES.is_empty() {
        out.push_str(
            "\nModel types known but refused with their reason (`unsupported`), so that no \
             approximate reading applies to them:\n\n",
        );
    }
    for (model_type, why) in &REFUSED_TYPES {
        out.push_str(&format!("- `{model_type}`: {}.\n", one_line(why)));
    }
    out
}

fn family_name(a: &Architecture) -> String {
    serde_json::to_value(a.family)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Collapses the runs of spaces left by line continuations.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
