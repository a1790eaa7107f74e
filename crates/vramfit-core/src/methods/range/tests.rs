//! Golden tests. Every expected figure is worked out by hand in the
//! comments from the model's published shape (see `vramfit inspect`),
//! in bytes; GB = 10⁹ bytes.
use super::*;
use crate::methods::{estimate_input, run, RunError};
use crate::scenario::WeightFormat;
use crate::scenario::{ModelRef, ScenarioInput};
use crate::units::bytes_for_bits;
use crate::verdict::FitStatus;

const LLAMA_8B: &str = "meta-llama/Llama-3.1-8B";

fn input(model: &str) -> ScenarioInput {
    ScenarioInput {
        model: Some(ModelRef::Catalog(model.into())),
        ..ScenarioInput::default()
    }
}

fn run_input(input: ScenarioInput) -> MethodResult {
    estimate_input(estimate, input)
}

fn get(r: &MethodResult, term: Term) -> u64 {
    r.components.get(term).unwrap().get()
}

/// The components add up to the high end, and low = high − margin.
fn check_sums(r: &MethodResult) {
    let all: Bytes = r.components.0.iter().map(|c| c.bytes).sum();
    assert_eq!(all, r.total_bytes);
    assert_eq!(r.high_bytes, Some(r.total_bytes));
    assert_eq!(
        r.low_bytes,
        Some(r.total_bytes - Bytes(get(r, Term::Margin)))
    );
    assert_eq!(r.verdict.needed_bytes, r.total_bytes);
}

#[test]
fn llama_3_1_8b_bf16_8k_fits_24_gb_comfortably() {
    let r = run_input(input(LLAMA_8B));
    check_sums(&r);
    let names: Vec<Term> = r.components.terms().collect();
    assert_eq!(
        names,
        [
            Term::Weights,
            Term::KvCache,
            Term::ModelStates,
            Term::Adapters,
            Term::Activations,
            Term::Logits,
            Term::Runtime,
            Term::Margin
        ]
    );
    // P = 8,030,261,248 at 16 bits: × 2 bytes.
    assert_eq!(get(&r, Term::Weights), 16_060_522_496);
    // Every layer full attention: 2 × 32 layers × 8 KV heads × 128 × 2
    // bytes = 131,072 bytes per token, × 8,192 tokens × 1 sequence.
    assert_eq!(get(&r, Term::KvCache), 1_073_741_824);
    assert_eq!(get(&r, Term::Runtime), 1_000_000_000);
    // 0.2 × 16,060,522,496 = 3,212,104,499.2 → 3,212,104,499.
    assert_eq!(get(&r, Term::Margin), 3_212_104_499);
    // low = 16,060,522,496 + 1,073,741,824 + 10⁹.
    assert_eq!(r.low_bytes, Some(Bytes(18_134_264_320)));
    // high = low + margin = 21.35 GB ≤ 0.9 × 24 GB = 21.6 GB.
    assert_eq!(r.total_bytes, 21_346_368_819);
    assert_eq!(r.seed_verdict, Some(SeedVerdict::FitsComfortably));
    // The ring reads 88.9 % of 24 GB: above seed 002's 85 %.
    assert_eq!(r.verdict.percent(), 88.9);
    assert_eq!(r.verdict.status, FitStatus::Tight);
    for name in [
        Term::ModelStates,
        Term::Adapters,
        Term::Activations,
        Term::Logits,
    ] {
        assert_eq!(get(&r, name), 0, "{name:?}");
    }
}

#[test]
fn q4_k_m_keeps_embeddings_and_head_at_16_bits() {
    let mut q4 = input(LLAMA_8B);
    q4.set_weight_format(WeightFormat::Q4KM);
    let r = run_input(q4.clone());
    check_sums(&r);
    // Embedding 525,336,576 + head 525,336,576 = 1,050,673,152 params
    // at 2 bytes = 2,101,346,304; the other 6,979,588,096 params at
    // 4.89 bits: × 4.89 / 8 = 4,266,273,223.68 → 4,266,273,224.
    assert_eq!(get(&r, Term::Weights), 2_101_346_304 + 4_266_273_224);
    assert_eq!(get(&r, Term::Weights), 6_367_619_528);
    // All at 4.89 bits it would be 4,908,497,188 bytes.
    assert!(get(&r, Term::Weights) > 4_908_497_188);
    // The cache stays at FP16: 1,073,741,824.
    assert_eq!(get(&r, Term::KvCache), 1_073_741_824);
    // 0.2 × 6,367,619,528 = 1,273,523,905.6 → 1,273,523,906.
    assert_eq!(get(&r, Term::Margin), 1_273_523_906);
    // low = 6,367,619,528 + 1,073,741,824 + 10⁹ = 8.44 GB;
    // high = 9.71 GB: 40.5 % of 24 GB.
    assert_eq!(r.low_bytes, Some(Bytes(8_441_361_352)));
    assert_eq!(r.total_bytes, 9_714_885_258);
    assert_eq!(r.seed_verdict, Some(SeedVerdict::FitsComfortably));
    // On an 8 GB GPU not even the low end (8.44 GB) fits.
    q4.gpu_memory_gb = 8.0;
    assert_eq!(run_input(q4).seed_verdict, Some(SeedVerdict::DoesNotFit));
}

#[test]
fn every_narrow_format_keeps_embeddings_at_16_bits() {
    let s = input(LLAMA_8B).validate().unwrap();
    let spec = s.model.as_deref().unwrap();
    let kept = 2 * 525_336_576u64;
    let rest = 8_030_261_248 - kept;
    let narrow = WeightFormat::ALL
        .into_iter()
        .filter(|f| f.keeps_embeddings_at_16_bits());
    assert_eq!(narrow.clone().count(), 9, "fp8 to q4_k_m, mxfp4 and nf4");
    for format in narrow {
        let bits = format.milli_bits().unwrap();
        assert_eq!(
            weights_at_bits(spec, bits),
            2 * kept + bytes_for_bits(rest, bits),
            "{format:?}"
        );
    }
    // 16 and 32 bits: every parameter at that width.
    assert_eq!(weights_at_bits(spec, 16_000), 2 * 8_030_261_248);
    assert_eq!(weights_at_bits(spec, 32_000), 4 * 8_030_261_248);
}

#[test]
fn gpt_oss_20b_as_published_64k() {
    let mut i = input("openai/gpt-oss-20b");
    i.set_weight_format(WeightFormat::AsPublished);
    i.context = 65_536;
    let r = run_input(i);
    check_sums(&r);
    // As published: MXFP4 experts (19,110,297,600 params at 4.25 bits
    // = 10,152,345,600 bytes) + their biases at BF16 (6,635,520 params,
    // 13,271,040 bytes) → experts 10,165,616,640; embedding and head
    // 2 × 1,158,266,880; attention 1,274,406,912; router 4,425,216;
    // norms 282,240 (all BF16). Sum 13,761,264,768.
    assert_eq!(get(&r, Term::Weights), 13_761_264_768);
    // 12 full layers and 12 sliding (window 128), 8 KV heads × 64:
    // 2 × 8 × 64 × 2 bytes = 2,048 bytes per token per layer.
    // Full: 12 × 2,048 × 65,536 = 1,610,612,736;
    // sliding: 12 × 2,048 × 128 = 3,145,728.
    assert_eq!(get(&r, Term::KvCache), 1_610_612_736 + 3_145_728);
    // 0.2 × 13,761,264,768 = 2,752,252,953.6 → 2,752,252,954.
    assert_eq!(get(&r, Term::Margin), 2_752_252_954);
    assert_eq!(r.low_bytes, Some(Bytes(16_375_023_232)));
    // 19.13 GB ≤ 21.6 GB.
    assert_eq!(r.total_bytes, 19_127_276_186);
    assert_eq!(r.seed_verdict, Some(SeedVerdict::FitsComfortably));
}

#[test]
fn gemma_2_9b_sliding_layers_stop_at_the_window() {
    let r = run_input(input("google/gemma-2-9b-it"));
    check_sums(&r);
    // 9,241,705,984 params (embedding tied: counted once) × 2 bytes.
    assert_eq!(get(&r, Term::Weights), 18_483_411_968);
    // 42 layers alternate sliding (window 4,096) and full; 8 KV heads ×
    // 256: 2 × 8 × 256 × 2 = 8,192 bytes per token per layer.
    // Full: 21 × 8,192 × 8,192 = 1,409,286,144;
    // sliding: 21 × 8,192 × 4,096 = 704,643,072.
    assert_eq!(get(&r, Term::KvCache), 2_113_929_216);
    // Every layer full would be 42 × 8,192 × 8,192 = 2,818,572,288.
    assert!(get(&r, Term::KvCache) < 2_818_572_288);
    // low = 18,483,411,968 + 2,113,929,216 + 10⁹ = 21.60 GB ≤ 24 GB;
    // high = low + 3,696,682,394 = 25.29 GB > 21.6 GB: tight.
    assert_eq!(r.low_bytes, Some(Bytes(21_597_341_184)));
    assert_eq!(get(&r, Term::Margin), 3_696_682_394);
    assert_eq!(r.total_bytes, 25_294_023_578);
    assert_eq!(r.seed_verdict, Some(SeedVerdict::FitsTightly));
    assert_eq!(r.verdict.status, FitStatus::DoesNotFit);
}

#[test]
fn deepseek_v3_mla_as_published_on_8_gpus() {
    let mut i = input("deepseek-ai/DeepSeek-V3");
    i.set_weight_format(WeightFormat::AsPublished);
    i.gpus = 8;
    i.gpu_memory_gb = 141.0;
    let r = run_input(i.clone());
    check_sums(&r);
    // The FP8 checkpoint with one fp32 scale per 128 × 128 tile, BF16
    // embeddings, head, routers and norms: 673,150,582,112 bytes
    // (MTP layer not loaded). One GPU's eighth: 84,143,822,764.
    assert_eq!(get(&r, Term::Weights), 673_150_582_112 / 8);
    // MLA caches one latent of 512 + 64 = 576 values per token and
    // layer: 61 × 576 × 2 bytes = 70,272 bytes per token (a full
    // K and V of 128 heads × 192 would be 61 × 2 × 128 × 192 × 2 =
    // 5,996,544). × 8,192 tokens = 575,668,224; an eighth: 71,958,528.
    assert_eq!(get(&r, Term::KvCache), 71_958_528);
    // 0.2 × 84,143,822,764 = 16,828,764,552.8 → 16,828,764,553.
    assert_eq!(get(&r, Term::Margin), 16_828_764_553);
    assert_eq!(r.low_bytes, Some(Bytes(85_215_781_292)));
    // 102.04 GB ≤ 0.9 × 141 = 126.9 GB.
    assert_eq!(r.total_bytes, 102_044_545_845);
    assert_eq!(r.seed_verdict, Some(SeedVerdict::FitsComfortably));
    // On 8 × 80 GB even the low end (85.2 GB) does not fit.
    i.gpu_memory_gb = 80.0;
    assert_eq!(run_input(i).seed_verdict, Some(SeedVerdict::DoesNotFit));
}

#[test]
fn llama_3_1_70b_split_over_2_and_8_gpus() {
    let at = |gpus: u64| {
        run_input(ScenarioInput {
            gpus,
            gpu_memory_gb: 80.0,
            ..input("meta-llama/Llama-3.1-70B")
        })
    };
    // Whole: P = 70,553,706,496 × 2 = 141,107,412,992 bytes; KV 80
    // layers × 2 × 8 × 128 × 2 = 327,680 bytes per token × 8,192 =
    // 2,684,354,560.
    let one = at(1);
    assert_eq!(get(&one, Term::Weights), 141_107_412_992);
    assert_eq!(get(&one, Term::KvCache), 2_684_354_560);
    assert_eq!(one.seed_verdict, Some(SeedVerdict::DoesNotFit));
    // Two GPUs: 70,553,706,496 + 1,342,177,280 + 10⁹ (runtime on each)
    // = 72.90 GB ≤ 80 GB; high adds 0.2 × 70,553,706,496 =
    // 14,110,741,299.2 → 87.01 GB > 72 GB: tight.
    let two = at(2);
    check_sums(&two);
    assert_eq!(get(&two, Term::Weights), 70_553_706_496);
    assert_eq!(get(&two, Term::KvCache), 1_342_177_280);
    assert_eq!(get(&two, Term::Runtime), 1_000_000_000);
    assert_eq!(two.low_bytes, Some(Bytes(72_895_883_776)));
    assert_eq!(two.total_bytes, 87_006_625_075);
    assert_eq!(two.seed_verdict, Some(SeedVerdict::FitsTightly));
    // Eight GPUs: 17,638,426,624 + 335,544,320 + 10⁹ = 18.97 GB; high
    // adds 3,527,685,324.8 → 3,527,685,325: 22.50 GB.
    let eight = at(8);
    check_sums(&eight);
    assert_eq!(get(&eight, Term::Weights), 17_638_426_624);
    assert_eq!(get(&eight, Term::KvCache), 335_544_320);
    assert_eq!(get(&eight, Term::Runtime), 1_000_000_000);
    assert_eq!(eight.low_bytes, Some(Bytes(18_973_970_944)));
    assert_eq!(eight.total_bytes, 22_501_656_269);
    assert_eq!(eight.seed_verdict, Some(SeedVerdict::FitsComfortably));
}

#[test]
fn an_uneven_split_rounds_up_to_the_most_loaded_gpu() {
    assert_eq!(per_gpu(Bytes(10), 3), 4);
    assert_eq!(per_gpu(Bytes(9), 3), 3);
    assert_eq!(per_gpu(Bytes(7), 1), 7);
}

/// Llama-3.1-8B fine-tuning at 4,096 tokens, one sequence.
fn training(mode: Mode, gpus: u64, gpu_memory_gb: f64) -> MethodResult {
    run_input(ScenarioInput {
        mode,
        context: 4096,
        gpus,
        gpu_memory_gb,
        ..input(LLAMA_8B)
    })
}

// Llama-3.1-8B activations at T = 4,096 tokens, H = 4,096, L = 32:
// saved inputs 2 × 4,096 × 4,096 × 32 = 1,073,741,824; recomputed layer
// 34 × 4,096 × 4,096 = 570,425,344; together 1,644,167,168.
const LLAMA_8B_ACTIVATIONS: u64 = 1_073_741_824 + 570_425_344;
// FP32 logits: 4 × 128,256 × 4,096 = 2,101,346,304.
const LLAMA_8B_LOGITS: u64 = 2_101_346_304;

#[test]
fn full_fine_tune_is_16_bytes_per_parameter() {
    // One H200 (141 GB): states 16 × 8,030,261,248 = 128,484,179,968.
    let one = training(Mode::Full, 1, 141.0);
    check_sums(&one);
    assert_eq!(get(&one, Term::ModelStates), 128_484_179_968);
    assert_eq!(get(&one, Term::Weights), 0);
    assert_eq!(get(&one, Term::KvCache), 0);
    assert_eq!(get(&one, Term::Activations), LLAMA_8B_ACTIVATIONS);
    assert_eq!(get(&one, Term::Logits), LLAMA_8B_LOGITS);
    // states + activations = 132,229,693,440; low + 1 GB = 133.23 GB ≤
    // 141 GB; high = 1.2 × 132,229,693,440 + 10⁹ = 159.68 GB: tight.
    assert_eq!(get(&one, Term::Margin), 26_445_938_688);
    assert_eq!(one.low_bytes, Some(Bytes(133_229_693_440)));
    assert_eq!(one.total_bytes, 159_675_632_128);
    assert_eq!(one.seed_verdict, Some(SeedVerdict::FitsTightly));
    // Eight 80 GB GPUs (FSDP): states / 8 = 16,060,522,496 per GPU,
    // activations and logits stay whole on each GPU.
    let eight = training(Mode::Full, 8, 80.0);
    check_sums(&eight);
    assert_eq!(get(&eight, Term::ModelStates), 16_060_522_496);
    assert_eq!(get(&eight, Term::Activations), LLAMA_8B_ACTIVATIONS);
    assert_eq!(get(&eight, Term::Logits), LLAMA_8B_LOGITS);
    // 16,060,522,496 + 1,644,167,168 + 2,101,346,304 = 19,806,035,968;
    // × 0.2 = 3,961,207,193.6 → 3,961,207,194.
    assert_eq!(get(&eight, Term::Margin), 3_961_207_194);
    assert_eq!(eight.low_bytes, Some(Bytes(20_806_035_968)));
    assert_eq!(eight.total_bytes, 24_767_243_162);
    assert_eq!(eight.seed_verdict, Some(SeedVerdict::FitsComfortably));
}

#[test]
fn lora_on_a_dense_model_adapts_attention_and_mlp() {
    let s = input(LLAMA_8B).validate().unwrap();
    let spec = s.model.as_deref().unwrap();
    // Per layer, r = 16, H = 4,096, q/o width 32 × 128 = 4,096, k/v
    // width 8 × 128 = 1,024, MLP width 14,336:
    // q (4,096 + 4,096) + k, v 2 × (4,096 + 1,024) + o (4,096 + 4,096)
    //   = 26,624; gate, up, down 3 × (4,096 + 14,336) = 55,296;
    // 16 × 81,920 = 1,310,720 per layer × 32 = 41,943,040.
    assert_eq!(adapter_params(spec, 16), 41_943_040);
    assert_eq!(adapters_bytes(spec, 16), 671_088_640);
    let r = training(Mode::Lora, 1, 24.0);
    check_sums(&r);
    // Frozen BF16 base 16,060,522,496 + adapters 671,088,640.
    assert_eq!(get(&r, Term::Weights), 16_060_522_496);
    assert_eq!(get(&r, Term::Adapters), 671_088_640);
    assert_eq!(get(&r, Term::ModelStates), 0);
    // 16,731,611,136 + 1,644,167,168 + 2,101,346,304 = 20,477,124,608;
    // low 21.48 GB ≤ 24 GB; high = 1.2 × that + 10⁹ = 25.57 GB: tight.
    assert_eq!(get(&r, Term::Margin), 4_095_424_922);
    assert_eq!(r.low_bytes, Some(Bytes(21_477_124_608)));
    assert_eq!(r.total_bytes, 25_572_549_530);
    assert_eq!(r.seed_verdict, Some(SeedVerdict::FitsTightly));
    // The rank scales the adapters linearly.
    let rank_32 = run_input(ScenarioInput {
        mode: Mode::Lora,
        context: 4096,
        lora_rank: 32,
        ..input(LLAMA_8B)
    });
    assert_eq!(get(&rank_32, Term::Adapters), 2 * 671_088_640);
}

#[test]
fn lora_on_a_mixture_of_experts_adapts_attention_only() {
    let i = ScenarioInput {
        mode: Mode::Lora,
        context: 4096,
        gpu_memory_gb: 80.0,
        ..input("Qwen/Qwen3-30B-A3B")
    };
    let s = i.clone().validate().unwrap();
    let spec = s.model.as_deref().unwrap();
    // H = 2,048, q/o width 32 × 128 = 4,096, k/v width 4 × 128 = 512;
    // experts get no adapters. Per layer: (2,048 + 4,096)
    // + 2 × (2,048 + 512) + (4,096 + 2,048) = 17,408; × 16 × 48 layers
    // = 13,369,344 adapter parameters, 213,909,504 bytes.
    assert_eq!(adapter_params(spec, 16), 13_369_344);
    let r = run_input(i);
    check_sums(&r);
    assert_eq!(get(&r, Term::Adapters), 213_909_504);
    // Frozen base 30,532,122,624 × 2 = 61,064,245,248.
    assert_eq!(get(&r, Term::Weights), 61_064_245_248);
    // T = 4,096, H = 2,048, L = 48: 2 × 4,096 × 2,048 × 48 =
    // 805,306,368 + 34 × 4,096 × 2,048 = 285,212,672; logits
    // 4 × 151,936 × 4,096 = 2,489,319,424.
    assert_eq!(get(&r, Term::Activations), 805_306_368 + 285_212_672);
    assert_eq!(get(&r, Term::Logits), 2_489_319_424);
    // Sum 64,857,993,216: low 65.86 GB; high 78.83 GB > 72 GB: tight.
    assert_eq!(r.low_bytes, Some(Bytes(65_857_993_216)));
    assert_eq!(r.total_bytes, 78_829_591_859);
    assert_eq!(r.seed_verdict, Some(SeedVerdict::FitsTightly));
}

#[test]
fn mla_adapters_follow_the_latent_projections() {
    let s = input("deepseek-ai/DeepSeek-V3").validate().unwrap();
    let spec = s.model.as_deref().unwrap();
    // H = 7,168, 128 heads, r_q = 1,536, r_kv = 512, d_rope = 64,
    // d_nope = 128, d_v = 128, r = 16; per layer:
    // q_a (7,168 + 1,536) = 8,704; q_b (1,536 + 128 × 192) = 26,112;
    // kv_a (7,168 + 576) = 7,744; kv_b (512 + 128 × 256) = 33,280;
    // o (128 × 128 + 7,168) = 23,552; sum 99,392 × 16 = 1,590,272;
    // × 61 layers = 97,006,592 (a MoE model: no MLP adapters, even on
    // its three dense layers).
    assert_eq!(adapter_params(spec, 16), 97_006_592);
}

#[test]
fn qlora_stores_the_base_in_nf4() {
    let r = training(Mode::Qlora, 1, 24.0);
    check_sums(&r);
    // Embedding and head 1,050,673,152 params at 16 bits =
    // 2,101,346,304; the other 6,979,588,096 at 4.127 bits =
    // 3,600,595,009.02 → 3,600,595,009. Base 5,701,941,313.
    assert_eq!(get(&r, Term::Weights), 5_701_941_313);
    assert_eq!(get(&r, Term::Adapters), 671_088_640);
    assert_eq!(get(&r, Term::Activations), LLAMA_8B_ACTIVATIONS);
    assert_eq!(get(&r, Term::Logits), LLAMA_8B_LOGITS);
    // Sum 10,118,543,425; × 0.2 = 2,023,708,685.
    assert_eq!(get(&r, Term::Margin), 2_023_708_685);
    assert_eq!(r.low_bytes, Some(Bytes(11_118_543_425)));
    assert_eq!(r.total_bytes, 13_142_252_110);
    assert_eq!(r.seed_verdict, Some(SeedVerdict::FitsComfortably));
    // The weight format chosen for serving does not move fine-tuning.
    let mut q4 = ScenarioInput {
        mode: Mode::Qlora,
        context: 4096,
        ..input(LLAMA_8B)
    };
    q4.set_weight_format(WeightFormat::Q4KM);
    assert_eq!(run_input(q4).total_bytes, r.total_bytes);
}

#[test]
fn seed_verdict_thresholds_at_90_percent_and_low_fits() {
    // Llama-3.1-8B BF16 8K: low 18,134,264,320, high 21,346,368,819.
    let s = input(LLAMA_8B).validate().unwrap();
    let check = |gpu: u64, want: SeedVerdict| {
        let on = Scenario {
            gpu_memory: crate::scenario::GpuMemory::typed(Bytes(gpu)),
            ..s.clone()
        };
        assert_eq!(estimate(&on).unwrap().seed_verdict, Some(want), "{gpu}");
    };
    // high ≤ 0.9 × gpu ⇔ gpu ≥ high / 0.9 = 23,718,187,576.7.
    check(23_718_187_577, SeedVerdict::FitsComfortably);
    check(23_718_187_576, SeedVerdict::FitsTightly);
    // low ≤ gpu.
    check(18_134_264_320, SeedVerdict::FitsTightly);
    check(18_134_264_319, SeedVerdict::DoesNotFit);
    // Exactly 90 % is still comfortable: (low, high, gpu) → verdict.
    for (low, high, gpu, want) in [
        (1, 90, 100, SeedVerdict::FitsComfortably),
        (1, 91, 100, SeedVerdict::FitsTightly),
        (100, 120, 100, SeedVerdict::FitsTightly),
        (101, 120, 100, SeedVerdict::DoesNotFit),
    ] {
        assert_eq!(seed_verdict(Bytes(low), Bytes(high), Bytes(gpu)), want);
    }
}

#[test]
fn typed_numbers_and_more_than_8_gpus_are_out_of_scope() {
    let typed = ScenarioInput::default().validate().unwrap();
    assert_eq!(estimate(&typed), Err(Refusal::NeedsModel));
    let nine = ScenarioInput {
        gpus: 9,
        ..input(LLAMA_8B)
    }
    .validate()
    .unwrap();
    assert_eq!(estimate(&nine), Err(Refusal::TooManyGpus { max: 8 }));
    assert_eq!(
        run(MethodId::Range, &nine).unwrap_err(),
        RunError {
            method: MethodId::Range,
            reason: Refusal::TooManyGpus { max: 8 }
        }
    );
    let eight = ScenarioInput {
        gpus: 8,
        ..input(LLAMA_8B)
    }
    .validate()
    .unwrap();
    assert!(estimate(&eight).is_ok());
}

#[test]
fn every_mode_runs_through_the_registry() {
    for mode in Mode::ALL {
        let s = ScenarioInput {
            mode,
            ..input(LLAMA_8B)
        }
        .validate()
        .unwrap();
        let r = run(MethodId::Range, &s).unwrap();
        assert_eq!(r.method, MethodId::Range);
        check_sums(&r);
    }
}

#[test]
fn kv_and_activations_grow_with_sequences() {
    let one = run_input(input(LLAMA_8B));
    let four = run_input(ScenarioInput {
        sequences: 4,
        ..input(LLAMA_8B)
    });
    assert_eq!(get(&four, Term::KvCache), 4 * get(&one, Term::KvCache));
    let t1 = training(Mode::Full, 1, 80.0);
    let t4 = run_input(ScenarioInput {
        mode: Mode::Full,
        context: 4096,
        sequences: 4,
        gpu_memory_gb: 80.0,
        ..input(LLAMA_8B)
    });
    assert_eq!(get(&t4, Term::Activations), 4 * get(&t1, Term::Activations));
    assert_eq!(get(&t4, Term::Logits), 4 * get(&t1, Term::Logits));
}

#[test]
fn serializes_low_high_and_the_seed_verdict() {
    let r = run_input(input(LLAMA_8B));
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["method"], "range");
    assert_eq!(json["low_bytes"], 18_134_264_320u64);
    assert_eq!(json["high_bytes"], 21_346_368_819u64);
    assert_eq!(json["seed_verdict"], "fits_comfortably");
    assert_eq!(json["components"]["margin"], 3_212_104_499u64);
}

#[test]
fn largest_inputs_do_not_panic() {
    for mode in Mode::ALL {
        let r = run_input(ScenarioInput {
            mode,
            context: 100_000_000,
            sequences: 1_000_000,
            lora_rank: 4096,
            kv_bytes: 4.0,
            ..input("deepseek-ai/DeepSeek-V3")
        });
        assert!(r.total_bytes >= r.low_bytes.unwrap(), "{mode:?}");
        assert!(r.verdict.utilization.is_finite());
        assert_eq!(r.seed_verdict, Some(SeedVerdict::DoesNotFit));
    }
}
