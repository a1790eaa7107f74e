//! `vramfit` on GGUF files as a person names them: a local path, and a Hub
//! URL served here by a local HTTP server with range support (127.0.0.1
//! only), of which only the header is fetched.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use vramfit_core::gguf::writer::Writer;
use vramfit_core::gguf::GgmlType;
use vramfit_core::methods::llamacpp::{file::converted, FileType, Role};

fn vramfit(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_vramfit"))
        .args(args)
        .output()
        .expect("the vramfit binary runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

fn llama_8b(retype: impl Fn(Role, GgmlType) -> GgmlType) -> Writer {
    let spec = vramfit_core::catalog::find_model("meta-llama/Llama-3.1-8B")
        .unwrap()
        .spec()
        .unwrap();
    converted(&spec, FileType::Q4_K_M, |t, ty| retype(t.role, ty)).unwrap()
}

/// A file served as its header followed by zeros, never held whole.
struct Served {
    path: String,
    header: Vec<u8>,
    len: u64,
}

/// Serves `files` on 127.0.0.1 with `Range: bytes=a-b` support; counts
/// the body bytes sent.
fn serve(files: Vec<Served>) -> (String, Arc<AtomicU64>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let sent = Arc::new(AtomicU64::new(0));
    let counter = sent.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request = String::new();
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                request.push_str(&line);
                line.clear();
            }
            let target = request.split_whitespace().nth(1).unwrap_or("");
            let path = target.split('?').next().unwrap_or("").to_string();
            // `/r/…` redirects to `…`, as the Hub's `resolve` links send
            // to their storage.
            if let Some(to) = path.strip_prefix("/r") {
                let head = format!("HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                let _ = stream.write_all(head.as_bytes());
                continue;
            }
            let Some(f) = files.iter().find(|f| f.path == path) else {
                let _ = stream.write_all(
                    b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                );
                continue;
            };
            let range = request
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("range: bytes=")
                        .map(str::to_string)
                })
                .and_then(|r| {
                    let (a, b) = r.trim().split_once('-')?;
                    Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?))
                });
            let (a, b) = range.unwrap_or((0, f.len - 1));
            let b = b.min(f.len - 1);
            let body: Vec<u8> = (a..=b)
                .map(|i| f.header.get(i as usize).copied().unwrap_or(0))
                .collect();
            let head = format!(
                "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {a}-{b}/{}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                f.len,
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
            counter.fetch_add(body.len() as u64, Ordering::SeqCst);
            let _ = reader.read(&mut [0u8; 0]);
        }
    });
    (base, sent)
}

const REPO: &str = "/bartowski/Meta-Llama-3.1-8B-GGUF/resolve/main";

#[test]
fn a_url_is_read_by_range_requests_for_its_header_only() {
    let w = llama_8b(|_, t| t);
    let header = w.header();
    let len = header.len() as u64 + w.data_len();
    let path = format!("{REPO}/Meta-Llama-3.1-8B-Q4_K_M.gguf");
    let (base, sent) = serve(vec![Served {
        path: path.clone(),
        header: header.clone(),
        len,
    }]);
    let url = format!("{base}/r{path}?download=true");
    let (out, err, ok) = vramfit(&["inspect", &url]);
    assert!(ok, "{err}");
    print!("{out}{err}");
    assert!(
        out.contains("file              Meta-Llama-3.1-8B-Q4_K_M.gguf\n"),
        "{out}"
    );
    assert!(out.contains("file type         Q4_K - Medium\n"), "{out}");
    assert!(
        out.contains("model size        4.58 GiB (4912898304 bytes, 292 tensors)\n"),
        "{out}"
    );
    let fetched = sent.load(Ordering::SeqCst);
    // The header (a 128,256-token vocabulary) and no more than the next read.
    assert!(fetched >= header.len() as u64, "{fetched}");
    assert!(fetched * 100 < len, "{fetched} of {len} bytes fetched");
    assert!(err.contains("range requests"), "{err}");
    let (json, _, _) = vramfit(&["inspect", &url, "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["gguf"]["model_size_bytes"], 4_912_898_304u64);
    assert_eq!(doc["gguf"]["tensor_types"][2]["type"], "q6_K");
    assert_eq!(doc["gguf"]["tensor_types"][2]["tensors"], 33);
    assert_eq!(doc["source"], "gguf");
}

#[test]
fn estimate_sizes_a_local_mixed_file_by_its_own_types() {
    // A dynamic-quant mix: every quantized matrix iq2_xxs but the
    // embedding (q4_K) and the head (q6_K).
    let w = llama_8b(|role, t| match role {
        Role::TokenEmbd => GgmlType::Q4_K,
        Role::Output => GgmlType::Q6_K,
        _ if t.is_quantized() => GgmlType::IQ2_XXS,
        _ => t,
    });
    let dir = std::env::temp_dir().join(format!("vramfit-gguf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("Llama-3.1-8B-UD-IQ2_XXS.gguf");
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(&w.header()).unwrap();
    // The data as a hole: the file has its full length, not its bytes.
    f.set_len(w.header().len() as u64 + w.data_len()).unwrap();
    drop(f);
    let p = path.to_str().unwrap();
    let (out, err, ok) = vramfit(&[
        "estimate", p, "--method", "llamacpp", "--seq", "8192", "--gpu", "RTX 4090",
    ]);
    print!("{out}{err}");
    assert!(ok, "{err}");
    assert!(
        out.contains("llama-server -m Llama-3.1-8B-UD-IQ2_XXS.gguf -c 8192"),
        "{out}"
    );
    let (json, _, _) = vramfit(&[
        "estimate", p, "--method", "llamacpp", "--seq", "8192", "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let engine = &doc["estimate"]["engine"];
    assert_eq!(engine["model_size_bytes"], 2_526_863_616u64, "{engine}");
    assert_eq!(engine["k_bytes"], 536_870_912u64);
    assert_eq!(doc["model"]["source"], "gguf");
    // Without --method, a GGUF file is estimated as llama.cpp runs it.
    let (json, _, _) = vramfit(&["estimate", p, "--seq", "8192", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["inputs"]["method"], "llamacpp");
    // The speed reads the file's own tensors: a token reads at most the
    // file's 2.35 GiB, not the 4.58 GiB the Q4_K_M recipe would write.
    let (json, _, _) = vramfit(&[
        "estimate", p, "--seq", "8192", "--gpu", "RTX 4090", "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let speed = &doc["estimate"]["engine"]["speed"];
    let read = speed["gpu_bytes_per_token"].as_u64().unwrap();
    assert!(read <= 2_526_863_616, "{speed}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_split_file_is_read_shard_by_shard_by_url() {
    use vramfit_core::gguf::Value;
    // Llama-3.1-8B in two shards: the model's metadata and its first 150
    // tensors, then the rest (as llama-gguf-split writes them).
    let whole = llama_8b(|_, t| t);
    let h = vramfit_core::gguf::header::parse(&whole.header()).unwrap();
    let mut files = Vec::new();
    let mut total = 0;
    for (no, range) in [(0u16, 0..150), (1, 150..h.tensors.len())] {
        let mut w = Writer::new();
        if no == 0 {
            for kv in &h.metadata {
                w.kv(&kv.key, kv.value.clone());
            }
        }
        w.kv("split.no", Value::U16(no))
            .kv("split.count", Value::U16(2))
            .kv("split.tensors.count", Value::I32(h.tensors.len() as i32));
        for t in &h.tensors[range] {
            w.tensor(&t.name, &t.shape, t.ggml_type).unwrap();
        }
        let header = w.header();
        let len = header.len() as u64 + w.data_len();
        total += len;
        files.push(Served {
            path: format!(
                "{REPO}/Meta-Llama-3.1-8B-Q4_K_M-{:05}-of-00002.gguf",
                no + 1
            ),
            header,
            len,
        });
    }
    let (base, sent) = serve(files);
    let url = format!("{base}{REPO}/Meta-Llama-3.1-8B-Q4_K_M-00001-of-00002.gguf");
    let (out, err, ok) = vramfit(&["inspect", &url]);
    assert!(ok, "{err}");
    assert!(
        out.contains("file              Meta-Llama-3.1-8B-Q4_K_M-00001-of-00002.gguf (2 shards)\n"),
        "{out}"
    );
    assert!(
        out.contains("model size        4.58 GiB (4912898304 bytes, 292 tensors)\n"),
        "{out}"
    );
    assert!(sent.load(Ordering::SeqCst) * 100 < total);
}

#[test]
fn a_file_that_is_not_gguf_is_one_clear_line() {
    let dir = std::env::temp_dir().join(format!("vramfit-notgguf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("model.gguf");
    std::fs::write(&path, b"<!doctype html>").unwrap();
    let (_, err, ok) = vramfit(&["inspect", path.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("not a GGUF file (it starts with \"<!do\", not \"GGUF\")"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The excerpt of log `id` in the engine logs (`data/engines/llamacpp-logs.md`).
fn log_excerpt(id: &str) -> String {
    let logs = include_str!("../../vramfit-core/data/engines/llamacpp-logs.md");
    let start = logs.find(&format!("## [{id}]")).unwrap();
    logs[start..].split("```").nth(1).unwrap().to_string()
}

#[test]
fn a_pasted_log_calibrates_a_gguf_file_and_the_next_scenario() {
    // [A7]: Llama 3.1 8B Instruct Q4_0 on an RTX 4080 (Vulkan), 16,384 cells.
    let dir = std::env::temp_dir().join(format!("vramfit-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("load.log");
    std::fs::write(&log, log_excerpt("A7")).unwrap();
    let spec = vramfit_core::catalog::find_model("meta-llama/Llama-3.1-8B-Instruct")
        .unwrap()
        .spec()
        .unwrap();
    let w = converted(&spec, FileType::Q4_0, |_, t| t).unwrap();
    let gguf = dir.join("Meta-Llama-3.1-8B-Instruct-Q4_0.gguf");
    std::fs::write(&gguf, w.header()).unwrap();
    let (g, l) = (gguf.to_str().unwrap(), log.to_str().unwrap());
    let (out, err, ok) = vramfit(&["estimate", g, "--method", "llamacpp", "--calibrate", l]);
    print!("{out}{err}");
    assert!(ok, "{err}");
    assert!(
        out.contains("build 5781 (ba3ef86c5); Vulkan0 NVIDIA GeForce RTX 4080 (16376 MiB free)"),
        "{out}"
    );
    assert!(
        out.contains("  K cache                  1024.00 MiB   1024.00 MiB     0.00%\n"),
        "{out}"
    );
    assert!(
        out.contains("  model buffer, host        281.81 MiB    281.81 MiB     0.00%\n"),
        "{out}"
    );
    assert!(
        out.contains("  model buffer, GPU        4155.99 MiB   4155.99 MiB     0.00%\n"),
        "{out}"
    );
    // The log's settings carry to the next scenario on that machine: its
    // micro-batch, cache types and its GPU's 16,376 MiB, at a new context.
    let (out, err, ok) = vramfit(&[
        "estimate",
        g,
        "--method",
        "llamacpp",
        "--calibrate",
        l,
        "--seq",
        "32768",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("llama-server -m Meta-Llama-3.1-8B-Instruct-Q4_0.gguf -c 32768 -ngl 33 -ctk f16 -ctv f16 -fa on -ub 1024"), "{out}");
    assert!(out.contains("fits 16.10 GB usable"), "{out}");
    // A config (no file): the file type the log printed, Q4_0, is sized.
    let (out, err, ok) = vramfit(&[
        "estimate",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--method",
        "llamacpp",
        "--calibrate",
        l,
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("  GGUF Q4_0, n_ctx 16384, 1 sequence(s), K f16 V f16\n"),
        "{out}"
    );
    assert!(
        out.contains("  model buffer, GPU        4155.99 MiB   4155.99 MiB     0.00%\n"),
        "{out}"
    );
    let (_, err, ok) = vramfit(&["estimate", g, "--calibrate", g]);
    assert!(!ok && err.contains("not a load log"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_pasted_log_s_compute_buffers_calibrate_other_scenarios_on_the_machine() {
    // [A7]: the Vulkan GPU compute buffer prints 613.01 MiB; the replay of
    // the log's settings is 533.00 MiB. The fit scales every replay after it.
    let dir = std::env::temp_dir().join(format!("vramfit-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("load.log");
    std::fs::write(&log, log_excerpt("A7")).unwrap();
    let spec = vramfit_core::catalog::find_model("meta-llama/Llama-3.1-8B-Instruct")
        .unwrap()
        .spec()
        .unwrap();
    let w = converted(&spec, FileType::Q4_0, |_, t| t).unwrap();
    let gguf = dir.join("Meta-Llama-3.1-8B-Instruct-Q4_0.gguf");
    std::fs::write(&gguf, w.header()).unwrap();
    let (g, l) = (gguf.to_str().unwrap(), log.to_str().unwrap());
    let base = ["estimate", g, "--method", "llamacpp", "--calibrate", l];
    let (out, err, ok) = vramfit(&base);
    assert!(ok, "{err}");
    assert!(
        out.contains(
            "  fitted: GPU compute buffers +15.01% of the replay (613.01 MiB printed / \
             533.00 MiB replayed), 16376 MiB free on the GPU, build 5781; every estimate below \
             on this machine uses them (compute buffers: calibrated from your log)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("(calibrated from your log)\n  output buffer"),
        "{out}"
    );
    let json = |extra: &[&str]| -> serde_json::Value {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let (out, err, ok) = vramfit(&[args.as_slice(), &["--json"]].concat());
        assert!(ok, "{err}");
        serde_json::from_str(&out).unwrap()
    };
    // The log's own scenario: the printed GPU compute buffer, to the print.
    let own = json(&[]);
    let fitted = &own["inputs"]["engine"]["llamacpp_calibration"];
    assert_eq!(fitted["gpu_compute_printed_bytes"], 642_787_573u64);
    assert_eq!(fitted["build"], 5781);
    assert_eq!(fitted["free_bytes"], 16_376u64 << 20);
    assert_eq!(
        own["estimate"]["engine"]["compute_calibrated_from_log"],
        *fitted
    );
    let gpu = own["estimate"]["components"]["compute_buffer"]
        .as_u64()
        .unwrap();
    let printed = 61_301u64 * (1 << 20) / 100;
    assert!(gpu.abs_diff(printed) <= 5_243, "{gpu} vs {printed}");
    // Another context and micro-batch: the figure moves, still calibrated.
    let other = json(&["--seq", "32768", "--ubatch", "512"]);
    let moved = other["estimate"]["components"]["compute_buffer"]
        .as_u64()
        .unwrap();
    assert_ne!(moved, gpu);
    assert_eq!(
        other["estimate"]["engine"]["compute_calibrated_from_log"],
        *fitted
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_vision_projector_takes_its_bytes_on_the_gpu() {
    use vramfit_core::gguf::Value;
    let dir = std::env::temp_dir().join(format!("vramfit-mmproj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("Llama-3.1-8B-Q4_K_M.gguf");
    std::fs::write(&model, llama_8b(|_, t| t).header()).unwrap();
    let mut w = Writer::new();
    w.kv("general.architecture", Value::String("clip".into()))
        .kv("clip.projector_type", Value::String("mlp".into()));
    // 1,354,752 + 2,654,208 + 17,694,720 bytes.
    w.tensor("v.patch_embd.weight", &[14, 14, 3, 1152], GgmlType::F16)
        .unwrap()
        .tensor("v.blk.0.attn_q.weight", &[1152, 1152], GgmlType::F16)
        .unwrap()
        .tensor("mm.0.weight", &[1152, 3840], GgmlType::F32)
        .unwrap();
    let mmproj = dir.join("mmproj-test.gguf");
    std::fs::write(&mmproj, w.header()).unwrap();
    let (m, p) = (model.to_str().unwrap(), mmproj.to_str().unwrap());
    let run = |extra: &[&str]| {
        let mut args = vec!["estimate", m, "--seq", "8192", "--json"];
        args.extend(extra);
        let (out, err, ok) = vramfit(&args);
        assert!(ok, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let plain = run(&[]);
    let with = run(&["--mmproj", p]);
    let gpu = |d: &serde_json::Value| d["estimate"]["engine"]["gpu_bytes"].as_u64().unwrap();
    assert_eq!(gpu(&with) - gpu(&plain), 21_703_680);
    let command = with["estimate"]["engine"]["command"].as_str().unwrap();
    assert!(command.ends_with(" --mmproj mmproj-test.gguf"), "{command}");
    // The plan names the projector, its GPU and what is not sized.
    let part = &with["estimate"]["engine"]["projector"];
    assert_eq!(part["file"], "mmproj-test.gguf");
    assert_eq!(part["projector_type"], "mlp");
    assert_eq!(part["device"], 0);
    assert_eq!(part["weights_bytes"], 21_703_680);
    // No `clip.vision.*` shape: its compute buffers are not sized, and say why.
    assert_eq!(
        part["not_sized"],
        "the file states no usable vision shape (clip.vision.*)"
    );
    assert!(plain["estimate"]["engine"].get("projector").is_none());
    let (out, _, _) = vramfit(&["estimate", m, "--mmproj", p]);
    assert!(
        out.contains(
            "vision projector mmproj-test.gguf (mlp): 0.02 GiB of weights on GPU 0 (its clip \
             compute buffers not sized: the file states no usable vision shape"
        ),
        "{out}"
    );
    let (_, err, ok) = vramfit(&["estimate", m, "--mmproj", m]);
    assert!(
        !ok && err.contains("a projector file is a `clip` GGUF, not `llama`"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A Gemma 3 projector as converted (SigLIP so400m/14 at 896, 27 layers,
/// f16 products): its compute buffers are the clip graph at 896 × 896
/// replayed, in the GPU's and the host's totals, named in the JSON and the
/// text.
#[test]
fn a_gemma_3_projector_reserves_its_warm_up_image() {
    use vramfit_core::gguf::Value;
    let dir = std::env::temp_dir().join(format!("vramfit-mmproj-g3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("Llama-3.1-8B-Q4_K_M.gguf");
    std::fs::write(&model, llama_8b(|_, t| t).header()).unwrap();
    let mut w = Writer::new();
    let u = |n: u32| Value::U32(n);
    w.kv("general.architecture", Value::String("clip".into()))
        .kv("clip.projector_type", Value::String("gemma3".into()))
        .kv("clip.has_vision_encoder", Value::Bool(true))
        .kv("clip.use_gelu", Value::Bool(true))
        .kv("clip.vision.embedding_length", u(1152))
        .kv("clip.vision.feed_forward_length", u(4304))
        .kv("clip.vision.block_count", u(27))
        .kv("clip.vision.attention.head_count", u(16))
        .kv("clip.vision.projection_dim", u(2560))
        .kv("clip.vision.image_size", u(896))
        .kv("clip.vision.patch_size", u(14));
    let (f16, f32) = (GgmlType::F16, GgmlType::F32);
    let mut tensors: Vec<(String, Vec<u64>, GgmlType)> = vec![
        ("v.patch_embd.weight".into(), vec![14, 14, 3, 1152], f16),
        ("v.patch_embd.bias".into(), vec![1152], f32),
        ("v.position_embd.weight".into(), vec![1152, 4096], f32),
        ("v.post_ln.weight".into(), vec![1152], f32),
        ("v.post_ln.bias".into(), vec![1152], f32),
        ("mm.soft_emb_norm.weight".into(), vec![1152], f32),
        ("mm.input_projection.weight".into(), vec![2560, 1152], f16),
    ];
    for il in 0..27 {
        for n in ["ln1", "ln2"] {
            tensors.push((format!("v.blk.{il}.{n}.weight"), vec![1152], f32));
            tensors.push((format!("v.blk.{il}.{n}.bias"), vec![1152], f32));
        }
        for n in ["attn_q", "attn_k", "attn_v", "attn_out"] {
            tensors.push((format!("v.blk.{il}.{n}.weight"), vec![1152, 1152], f16));
            tensors.push((format!("v.blk.{il}.{n}.bias"), vec![1152], f32));
        }
        tensors.push((format!("v.blk.{il}.ffn_up.weight"), vec![1152, 4304], f16));
        tensors.push((format!("v.blk.{il}.ffn_up.bias"), vec![4304], f32));
        tensors.push((format!("v.blk.{il}.ffn_down.weight"), vec![4304, 1152], f16));
        tensors.push((format!("v.blk.{il}.ffn_down.bias"), vec![1152], f32));
    }
    for (name, dims, ty) in &tensors {
        w.tensor(name, dims, *ty).unwrap();
    }
    let mmproj = dir.join("mmproj-gemma-3-f16.gguf");
    std::fs::write(&mmproj, w.header()).unwrap();
    let (m, p) = (model.to_str().unwrap(), mmproj.to_str().unwrap());
    let run = |extra: &[&str]| {
        let mut args = vec!["estimate", m, "--seq", "8192", "--json", "--mmproj", p];
        args.extend(extra);
        let (out, err, ok) = vramfit(&args);
        assert!(ok, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let off = run(&["--no-flash-attn"]);
    let part = &off["estimate"]["engine"]["projector"];
    assert_eq!(part["compute"]["warmup_image_size"], 896);
    assert_eq!(part["compute"]["patches"], 4096);
    assert_eq!(part["compute"]["flash_attn"], false);
    // The CPU holds the raw image, 896² · 3 · 4 bytes; the GPU's buffer is
    // led by one layer's K·Q, 4096² · 16 · 4 bytes.
    assert_eq!(part["compute"]["host_bytes"], 9_633_792);
    let gpu = part["compute"]["gpu_bytes"].as_u64().unwrap();
    assert_eq!(gpu, 1132 << 20);
    assert!(part.get("not_sized").is_none());
    // The plan's GPU carries the weights and that buffer, its host the CPU's.
    let (plain, _, ok) = vramfit(&["estimate", m, "--seq", "8192", "--json", "--no-flash-attn"]);
    assert!(ok);
    let plain: serde_json::Value = serde_json::from_str(&plain).unwrap();
    let e = |d: &serde_json::Value, k: &str| d["estimate"]["engine"][k].as_u64().unwrap();
    let weights = part["weights_bytes"].as_u64().unwrap();
    assert_eq!(e(&off, "gpu_bytes") - e(&plain, "gpu_bytes"), weights + gpu);
    assert_eq!(e(&off, "host_bytes") - e(&plain, "host_bytes"), 9_633_792);
    let on = run(&[]);
    let fa = on["estimate"]["engine"]["projector"]["compute"]["gpu_bytes"]
        .as_u64()
        .unwrap();
    assert!(fa < gpu / 8, "{fa}");
    // The text names them.
    let (out, _, _) = vramfit(&["estimate", m, "--mmproj", p, "--no-flash-attn"]);
    assert!(
        out.contains(
            "vision projector mmproj-gemma-3-f16.gguf (gemma3): 0.79 GiB of weights on GPU 0; \
             clip compute buffers 1132.00 MiB on the GPU, 9.19 MiB on the CPU (warm-up image \
             896x896, 4096 patches, flash attention off)"
        ),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
