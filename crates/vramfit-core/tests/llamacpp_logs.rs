//! The `llamacpp` method against every llama.cpp load log in
//! `data/engines/llamacpp-logs.csv`: the file size and the KV cache within
//! 1 % wherever the log can be expressed, the GPU compute buffer within
//! 15 % where the compute buffers can be.

use vramfit_core::methods::llamacpp::logs;

const SIZE_KV_PPM: u64 = 10_000;
const COMPUTE_PPM: u64 = 150_000;

/// Logs whose GPU compute buffer the method does not reach within 15 %
/// (the README says so): U1 (LM Studio on Metal, flash attention off:
/// 551.26 MiB predicted, 819.26 printed; its runtime's graph has 6 nodes
/// a block more than mainline llama.cpp of that date, whose own allocator
/// the replay matches: `docs/methods/llamacpp.md` §6). The test fails
/// when one of them comes within, so that the list shrinks with the
/// method.
const COMPUTE_OUTSIDE: [&str; 1] = ["U1"];

#[test]
fn every_log_within_the_tolerances() {
    let rows = logs::compare().expect("every log reads and estimates");
    println!("{}", logs::markdown(&rows));
    assert_eq!(rows.len(), 10);
    let mut outside = Vec::new();
    for r in &rows {
        let id = &r.log.id;
        for (what, pair, tol) in [
            ("size", r.size, SIZE_KV_PPM),
            ("KV", r.kv, SIZE_KV_PPM),
            ("GPU KV", r.gpu_kv, SIZE_KV_PPM),
            ("host KV", r.host_kv, SIZE_KV_PPM),
            // The GPU's model buffer (Metal's: the span of the file it maps).
            ("GPU model buffer", r.gpu_model, SIZE_KV_PPM),
        ] {
            if let Some(p) = pair.filter(|p| p.error_ppm().unsigned_abs() > tol) {
                outside.push(format!("{id} {what}: {} vs {}", p.predicted, p.printed));
            }
        }
        for p in r
            .device_kv
            .iter()
            .filter(|p| p.error_ppm().unsigned_abs() > SIZE_KV_PPM)
        {
            outside.push(format!(
                "{id} KV of a GPU: {} vs {}",
                p.predicted, p.printed
            ));
        }
    }
    assert!(outside.is_empty(), "outside the tolerances: {outside:#?}");
}

#[test]
fn the_gpu_compute_buffer_within_15_percent_but_on_the_listed_logs() {
    let rows = logs::compare().unwrap();
    for r in rows.iter() {
        let Some(p) = r.gpu_compute else { continue };
        let within = p.error_ppm().unsigned_abs() <= COMPUTE_PPM;
        let listed = COMPUTE_OUTSIDE.contains(&r.log.id.as_str());
        assert_eq!(
            within, !listed,
            "{}: GPU compute {} predicted vs {} printed (listed outside: {listed})",
            r.log.id, p.predicted, p.printed
        );
    }
}

#[test]
fn every_log_with_a_model_is_estimated_and_its_kv_compared() {
    let rows = logs::compare().unwrap();
    let expressed: Vec<&str> = rows
        .iter()
        .filter(|r| r.not_expressed.is_none())
        .map(|r| r.log.id.as_str())
        .collect();
    assert_eq!(expressed.len(), 10, "{expressed:?}");
    assert!(rows
        .iter()
        .filter(|r| r.not_expressed.is_none())
        .all(|r| r.kv.is_some()));
    let compute = rows.iter().filter(|r| r.gpu_compute.is_some()).count();
    assert!(compute >= 8, "GPU compute compared on {compute} logs");
    // The per-GPU caches of the four-GPU log (A9) are compared one by one.
    let a9 = rows.iter().find(|r| r.log.id == "A9").unwrap();
    assert_eq!(a9.device_kv.len(), 4);
}

/// Log A5 (Qwen3-235B-A22B Q6_K, no layer offloaded, a BLAS build): three
/// compute buffers, CUDA0 742.00, CPU 304.75 (the BLAS backend's) and
/// CUDA_Host 65.01 MiB (the CPU backend's). BLAS takes every large product
/// on a host weight (not the experts' `MUL_MAT_ID`), so the logits
/// (512 × 151,936 × 4 B = 296.75 MiB) are in its buffer, not the GPU's.
#[test]
fn a_blas_build_has_two_host_compute_buffers_each_replayed() {
    let rows = logs::compare().unwrap();
    let a5 = rows.iter().find(|r| r.log.id == "A5").unwrap();
    let (host, blas) = a5.host_buffers.expect("A5 prints two host buffers");
    assert_eq!(blas.printed, 30_475 * (1 << 20) / 100);
    assert_eq!(blas.predicted, 512 * 151_936 * 4);
    assert_eq!(host.printed, 6_501 * (1 << 20) / 100);
    assert_eq!(host.predicted, 58_726_400); // 56.01 MiB
    assert!(blas.error_ppm().unsigned_abs() <= 30_000, "{blas:?}");
    assert!(host.error_ppm().unsigned_abs() <= COMPUTE_PPM, "{host:?}");
    let both = a5.host_compute.unwrap();
    assert_eq!(both.predicted, host.predicted + blas.predicted);
    assert!(both.error_ppm().unsigned_abs() <= 50_000, "{both:?}");
    // The GPU's buffer keeps the staged experts and their activations.
    let gpu = a5.gpu_compute.unwrap();
    assert!(gpu.error_ppm().unsigned_abs() <= 30_000, "{gpu:?}");
    // No other log prints a BLAS buffer.
    assert!(rows
        .iter()
        .filter(|r| r.log.id != "A5")
        .all(|r| r.host_buffers.is_none()));
}
