//! The log reader on the llama.cpp load logs of `data/engines/llamacpp-logs.md`
//! (verbatim excerpts, each with the figures read from it by hand), and the
//! `llamacpp` method's prediction beside them.

use super::*;
use crate::catalog::models;
use crate::methods::llamacpp::{estimate, FileType};

const LOGS: &str = include_str!("../../data/engines/llamacpp-logs.md");

/// The excerpt and the hand-read `buffers (MiB)` line of log `id`.
fn excerpt(id: &str) -> (String, String) {
    let start = LOGS.find(&format!("## [{id}]")).unwrap();
    let section = &LOGS[start..];
    let end = section[3..].find("\n## [").map_or(section.len(), |e| e + 3);
    let section = &section[..end];
    let buffers = section
        .lines()
        .find(|l| l.starts_with("- buffers (MiB):"))
        .unwrap_or("")
        .to_string();
    let block = section.split("```").nth(1).unwrap().to_string();
    (block, buffers)
}

/// A hand-read figure (`K = 976.00`) in hundredths of a MiB.
fn hand(buffers: &str, key: &str) -> Option<u64> {
    let at = buffers.find(&format!("{key} = "))? + key.len() + 3;
    let text: String = buffers[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    Mib::parse(&text).map(|m| m.0)
}

#[test]
fn every_log_reads_to_its_hand_read_figures() {
    for id in ["A1", "A3", "A5", "A7", "A9", "C1", "I3", "I5", "U1", "U3"] {
        let (text, buffers) = excerpt(id);
        let log = parse(&text).unwrap_or_else(|e| panic!("{id}: {e}"));
        let (k, v) = log.kv_sum();
        assert_eq!(Some(k.0), hand(&buffers, "K"), "{id} K");
        assert_eq!(Some(v.0), hand(&buffers, "V"), "{id} V");
        let check = |key: &str, got: Mib| {
            if let Some(want) = hand(&buffers, key) {
                assert_eq!(got.0, want, "{id} {key}");
            }
        };
        check("GPU model", LlamacppLog::sum(&log.model_buffers, false));
        check("host model", LlamacppLog::sum(&log.model_buffers, true));
        check("GPU KV", LlamacppLog::sum(&log.kv_buffers, false));
        check("host KV", LlamacppLog::sum(&log.kv_buffers, true));
        check("GPU compute", LlamacppLog::sum(&log.compute_buffers, false));
        check("host compute", LlamacppLog::sum(&log.compute_buffers, true));
        check("output", LlamacppLog::sum(&log.output_buffers, true));
    }
}

#[test]
fn settings_devices_and_builds_are_read() {
    let log = parse(&excerpt("A1").0).unwrap();
    assert_eq!(log.build.as_deref(), Some("5274 (d541533a)"));
    assert_eq!(log.devices[0].name, "CUDA0");
    assert_eq!(log.devices[0].description, "NVIDIA GeForce RTX 3090 Ti");
    assert_eq!(log.devices[0].free_mib, 23_041);
    assert_eq!(
        (log.n_ctx, log.n_seq_max, log.n_ubatch),
        (32_768, Some(1), Some(512))
    );
    assert_eq!(log.offloaded, Some((62, 62)));
    assert_eq!(log.arch.as_deref(), Some("glm4"));
    let u3 = parse(&excerpt("U3").0).unwrap();
    assert_eq!(
        (u3.flash_attn, u3.kv.len(), u3.swa_full),
        (Some(true), 2, false)
    );
    assert_eq!(u3.devices[0].free_mib, 18_185);
    let u1 = parse(&excerpt("U1").0).unwrap();
    assert!(u1.swa_full);
    assert_eq!(u1.flash_attn, Some(false));
}

#[test]
fn a_log_without_its_cache_or_context_names_the_line() {
    let e = parse("load_tensors: offloaded 33/33 layers to GPU\nllama_context: n_ctx = 4096")
        .unwrap_err();
    assert_eq!(e, LogError::Missing { line: KV_LINE });
    assert!(e
        .to_string()
        .starts_with("the log has no `llama_kv_cache: size = "));
    let e = parse("llama_kv_cache: size = 1.00 MiB (256 cells, 1 layers, 1/1 seqs), K (f16): 0.50 MiB, V (f16): 0.50 MiB").unwrap_err();
    assert_eq!(e, LogError::Missing { line: N_CTX_LINE });
    let e = parse("llama_context: n_ctx = 4096\nllama_kv_cache: size = 1.00 MiB (…), K (q9_0): 0.50 MiB, V (f16): 0.50 MiB").unwrap_err();
    assert_eq!(
        e,
        LogError::CacheType {
            name: "q9_0".into()
        }
    );
}

fn predict(id: &str, model: &str, file_type: FileType) -> Vec<Comparison> {
    let log = parse(&excerpt(id).0).unwrap();
    let spec = models::find_model(model).unwrap().spec().unwrap();
    let base = LlamaCppInputs {
        file_type,
        ..LlamaCppInputs::default()
    };
    let e = estimate(&spec, &inputs(&log, base), None).unwrap();
    compare(&log, &e)
}

fn row<'a>(rows: &'a [Comparison], figure: &str) -> &'a Comparison {
    rows.iter().find(|r| r.figure == figure).unwrap()
}

#[test]
fn llama_3_1_8b_q4_0_on_vulkan_is_predicted_to_the_mib() {
    // [A7]: 16,384 cells, f16, -ub 1024, every layer on the GPU.
    let rows = predict("A7", "meta-llama/Llama-3.1-8B-Instruct", FileType::Q4_0);
    // token_embd q4_0 on the host: 128,256 × 4,096 / 32 × 18 B = 281.81 MiB.
    let host = row(&rows, "model buffer, host");
    assert_eq!(
        (host.logged, host.predicted),
        (Mib(28_181).bytes(), 295_501_824)
    );
    assert_eq!(host.error_centi_pct(), 0);
    assert_eq!(row(&rows, "K cache").predicted, 1_073_741_824); // 1024.00 MiB
    assert_eq!(row(&rows, "K cache").error_centi_pct(), 0);
    assert_eq!(row(&rows, "V cache").error_centi_pct(), 0);
    // The GPU model buffer within 0.01 % (4155.99 MiB printed).
    assert!(row(&rows, "model buffer, GPU").error_centi_pct().abs() <= 1);
    assert!(row(&rows, "output buffer").within_print());
    assert!(row(&rows, "KV buffer, GPU").within_print());
}

#[test]
fn gpt_oss_20b_on_metal_and_lm_studio_full_swa_are_predicted() {
    // [U3]: 131,072 cells; 12 full layers and a 768-cell sliding cache.
    let rows = predict("U3", "openai/gpt-oss-20b", FileType::MXFP4_MOE);
    assert_eq!(row(&rows, "K cache").error_centi_pct(), 0);
    assert!(row(&rows, "model buffer, host").within_print()); // 586.82 MiB
    assert!(row(&rows, "output buffer").within_print()); // 0.77 MiB
                                                         // ggml-org's file is not the MXFP4_MOE recipe (the recipe's GPU
                                                         // buffer is 5.08 % short): its own header sizes it, not the recipe.
    assert!(row(&rows, "model buffer, GPU").error_centi_pct() < -500);
    // [U1]: LM Studio's full-size SWA cache, 4,096 cells for every layer.
    let rows = predict("U1", "openai/gpt-oss-120b", FileType::MXFP4_MOE);
    assert_eq!(row(&rows, "K cache").logged, 144 << 20);
    assert_eq!(row(&rows, "K cache").error_centi_pct(), 0);
}

#[test]
fn the_cache_writes_row_indices_fill_the_host_compute_buffer() {
    let rows = crate::methods::llamacpp::logs::compare().unwrap();
    let host = |id: &str| {
        rows.iter()
            .find(|r| r.log.id == id)
            .and_then(|r| r.host_compute)
            .unwrap()
    };
    let within = |p: crate::methods::llamacpp::logs::Pair| {
        p.predicted.abs_diff(p.printed) <= Printer::Llamacpp.half_digit(p.printed)
    };
    // [U1]: flash attention off, V stored transposed: per cache (full and
    // sliding) V's indices are 512 tokens × 512 values × 8 B = 2 MiB and
    // K's 4 KiB, graph inputs on the host: 22,681,600 B (21.63 MiB, the
    // replay without them) + 2 × (2,097,152 + 4,096) = 25.64 MiB.
    let u1 = host("U1");
    assert_eq!(u1.printed, Mib(2_564).bytes());
    assert_eq!(u1.predicted, 22_681_600 + 2 * (2_097_152 + 4_096));
    assert!(within(u1), "{u1:?}");
    // [I3]: Gemma 3 12B, 8 KV heads of 256: 2 × 8 MiB of V indices,
    // 52.51 + 16.00 + 0.01 = 68.51 MiB as printed.
    let i3 = host("I3");
    assert_eq!(i3.printed, Mib(6_851).bytes());
    assert!(within(i3), "{i3:?}");
    // [A7]: b5781 copies into a view (before PR #14959): no index inputs,
    // the host buffer as printed.
    assert!(within(host("A7")));
}

#[test]
fn a_runner_s_prefixes_before_the_lines_are_skipped() {
    // Each line as a runner relays it: a time stamp, a level, a tag.
    let (text, _) = excerpt("A7");
    let relayed: String = text
        .lines()
        .map(|l| format!("2025-07-01 10:00:00 [INFO] runner: {l}\n"))
        .collect();
    assert_eq!(parse(&relayed).unwrap(), parse(&text).unwrap());
}
