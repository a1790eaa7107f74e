//! The lesson and its methods, in English.

use crate::lesson::texts::{LessonTexts, MethodLesson};
use vramfit_core::methods::MethodId;

pub static LESSON: LessonTexts = LessonTexts {
    title: "Lesson: GPU memory, step by step",
    lead: "Break down weights, KV cache and training states before running.",
    method_label: "Method of the lesson",

    contract_title: "Learning contract: understand → implement → investigate",
    contract_goal: "Goal: explain the mechanism, reproduce one example and test a failure case. Reading alone does not mark mastery: each step is marked when you do it, not when you read it.",
    understand: "Understand",
    understand_what: "State the assumptions, the shapes and units, and a counterexample.",
    understand_how: "Marked when you write your counterexample.",
    implement: "Implement",
    implement_what: "Reproduce a numerical example and inspect its boundaries.",
    implement_how: "Marked when you reveal a result after predicting it.",
    investigate: "Investigate",
    investigate_what: "Compare one alternative under a matched budget.",
    investigate_how: "Marked when you compare two methods or two formats.",
    done: "done",
    pending: "to do",

    understand_title: "Understand: assumptions, shapes and units",
    assumptions: "Assumptions",
    terms: "Terms of the current scenario",
    term: "Term",
    formula: "Formula",
    value: "Value",
    counterexample_label: "Your counterexample",
    counterexample_hint: "A case that violates an assumption: which conclusion no longer follows?",
    counterexample_idea: "An idea to start from:",

    predict_title: "Before running: predict a boundary case",
    predict_intro: "Set up a boundary case (or keep the current scenario), write your prediction of the total with its unit, and only then reveal the result.",
    boundary_label: "Boundary cases in one click",
    boundary_min_context: "1 token of context (the KV cache almost vanishes)",
    boundary_at_limit: "The longest context that fits",
    boundary_none_fits: "No context fits this GPU",
    prediction_label: "Your prediction of the total",
    prediction_hint: "A number and its unit: GB = 10⁹ bytes, GiB = 2³⁰ bytes.",
    prediction_invalid: "Write a number of 0 or more (for example 18.8).",
    reveal: "Reveal the result",
    hidden: "The result stays hidden until you write a prediction and reveal it.",
    scenario_invalid: "The scenario has a problem: fix it in the calculator to compare.",
    predicted: "Your prediction",
    observed: "The method's result",
    discrepancy: "Discrepancy",
    too_high: "too high",
    too_low: "too low",
    exact: "exact",
    after_reveal: "Where does the difference come from? Look for the term you got wrong, or the unit.",
    masked_hint: "The scenario's figures appear once you reveal your prediction (above); until then they read “?”.",

    isolate_title: "Hint: isolate the assumption",
    isolate_intro: "Keep the baseline input fixed, change one parameter or boundary, and compare both the number and the units. A passing example verifies that case only.",
    change: "One change",
    total: "Total",
    delta: "Δ from the baseline",
    changed_terms: "Terms that change",
    baseline: "Baseline: the current scenario",
    apply: "Apply",
    not_estimated: "this method does not estimate it",
    same_bytes: "the same bytes: only the number changes",
    nothing_changes: "none",

    investigate_title: "Investigate: one alternative under a matched budget",
    investigate_intro: "Compare two methods or two weight formats at the same GPU and context.",
    kind_methods: "Two methods",
    kind_formats: "Two weight formats",
    current: "Current",
    alternative: "Alternative",
    utilization: "GPU use",
    verdict: "Verdict",

    example_title: "Minimal executable example",
    example_intro: "The same calculation as a vramfit command (this project's command-line tool) and as JSON inputs, the same the export holds.",
    cli_label: "Command line",
    json_label: "Inputs (JSON)",
    copy: "Copy",
    copied: "Copied",
    copy_failed: "Could not copy: select the text and copy it by hand.",
    config_note: "Save the pasted config.json under that name in the folder where you run the command.",
    json_note: "Add --json to the command for the whole vramfit/1 document, identical to the one “Export JSON” saves.",

    transfer_title: "Test and transfer",
    transfer_intro: "Record the input, the code version, the expected result and the observed result in the notebook. Then construct a counterexample that violates the assumption above and explain why the original conclusion no longer follows.",
    notes_label: "Notes",
    transfer_label: "Transfer test",
    transfer_hint: "Apply what you learned to another model, GPU or format: does the conclusion hold?",
    record: "Record in the notebook",
    recorded: "Recorded in the notebook.",
    open_notebook: "Open the notebook: export, import, clear →",
    evidence_title: "Predict, test and keep evidence",
    evidence_intro: "Before revealing an answer, predict one result. After the exercise, record the discrepancy and a transfer test. Saved in this browser, in every language.",

    interpretation_title: "How to read the results",
    references_title: "Method references",
    scope_title: "Review scope",
    checked: "Checked",
    not_checked: "Not checked",
    scope_note: "The scope of the mathematical review is recorded per lesson. It does not establish empirical reproduction: note any error you suspect in the notebook.",

    kit_title: "Reference kit",
    kit_intro: "Every worked example, with its inputs and the expected outputs of every method, in one JSON file. Check it with the command-line tool:",
    kit_download: "Download the complete kit (.json)",
    kit_failed: "The kit could not be downloaded.",

    double_context: |tokens| format!("Double the context: {tokens} tokens"),
    halve_bits: |bits| format!("Half the bits per weight: {bits}"),
    unit_view: |unit| format!("View in {}", unit.label()),
    switch_method: |method| format!("Method {}", method.id()),
    matched_budget: |gpu, context, batch| {
        format!("Shared budget: a {gpu} GPU, {context} tokens of context, {batch} sequence(s) at once.")
    },
    comparison: |difference, pct| format!("Alternative − current: {difference} ({pct})"),
    method: |method| match method {
        MethodId::Quick => &QUICK,
        MethodId::Lesson => &LESSON_METHOD,
        MethodId::Allocator => &ALLOCATOR,
        MethodId::Range => &RANGE,
        MethodId::Planner => &PLANNER,
        MethodId::Vllm => &VLLM,
        MethodId::Llamacpp => &LLAMACPP,
    },
};

static QUICK: MethodLesson = MethodLesson {
    interpretation: "A single-device inference estimate: ideally stored weights, a dense full-attention KV cache and a percentage of overhead for activations, the CUDA context and buffers. Decimal GB (10⁹ bytes). It does not model quantization metadata, sliding windows, latent attention, training or measured peaks.",
    formulas: "weights = P × b_w / 8 · KV per token = 2 × L × H_kv × d_head × b_kv · KV cache = KV per token × S × B · overhead = (weights + cache) × o / 100 · total = weights + cache + overhead",
    assumptions: &[
        "Every parameter takes exactly b_w bits: no quantization scales or zero points.",
        "Every layer keeps one key and one value per KV head and token (full attention).",
        "The cache grows linearly with the context S and the sequences B.",
        "The overhead is a fixed percentage (10 % by default; the seed says 10–20 %).",
        "It fits when the total does not exceed the GPU's nominal memory.",
    ],
    counterexample: "A model with sliding-window layers (Gemma 2): beyond the window their cache stops growing, so doubling the context no longer doubles the KV cache.",
    references: &[
        ("Seed 004, “Before downloading a model or renting a GPU”", "Weights, KV cache and overhead; worked example 8B FP16 at 8,192 tokens: about 18.8 GB on a 24 GB GPU."),
        ("docs/methodology.md, quick section", "Every term with its formula, symbols, defaults, and the three examples as tests."),
        ("The model's config.json", "num_hidden_layers, num_key_value_heads and the head dimension give the precise cache figure."),
    ],
    checked: &[
        "Units: integer bytes; GB = 10⁹ and GiB = 2³⁰, always labelled.",
        "Seed 004's numerical examples: 18.78 GB (8B FP16), 5.58 GB (8B 4-bit), 39.68 GB (70B 4-bit).",
        "The cache doubles when the context or the batch doubles.",
    ],
    not_checked: &[
        "How each provider or cloud dashboard accounts for memory.",
        "Actual allocation on the GPU: it needs an external measurement.",
        "What quantization does to quality.",
    ],
};

static LESSON_METHOD: MethodLesson = MethodLesson {
    interpretation: "A single-device estimate. Inference uses ideal weight storage and a dense KV cache; quantization metadata, kernels, activations and allocators add cost. Full training uses 18 bytes/parameter as a mixed-precision AdamW reference, plus your reserves. It does not model every framework, LoRA, sharding, offload or measured peaks.",
    formulas: "GiB = 2³⁰ bytes. States = parameters × 18 bytes. KV = 2 × layers × KV heads × dimension × sequence × batch × bytes. The margin multiplies the subtotal with reserves.",
    assumptions: &[
        "The 18-byte training baseline is 2 working-weight + 4 master-weight + 4 gradient + 8 Adam-moment bytes per parameter: one dtype layout, not a universal framework constant or a measured peak.",
        "Training does not add the weights again (they are inside the 18 bytes) and has no KV cache.",
        "Both reserves (runtime and activation, in GiB) count in both modes.",
        "The margin multiplies the subtotal that already includes the reserves.",
        "Capacity is compared in bytes: 24 GiB = 25,769,803,776 bytes.",
    ],
    counterexample: "Training with an 8-bit optimizer or with LoRA: 18 bytes per parameter no longer holds, so the conclusion “does not fit for training” no longer follows.",
    references: &[
        ("Seed 000, “GPU memory estimator”", "estimateVRAM({mode:'inference', params:7, …, capacity:24}): components.cache = 0.5 GiB."),
        ("docs/methodology.md, lesson section", "The example byte by byte: 24,126,220,134 bytes (22.47 GiB), fits 24 GiB at 93.6 %."),
        ("Mixed-precision AdamW", "2 + 4 + 4 + 8 = 18 bytes per trained parameter."),
    ],
    checked: &[
        "Counting units: GiB = 2³⁰ bytes against GB = 10⁹.",
        "The seed's numerical example: a KV cache of 536,870,912 bytes = 0.5 GiB.",
        "Its training counterpart: 152,308,818,586 bytes (141.85 GiB).",
        "That training does not count the weights twice.",
    ],
    not_checked: &[
        "Provider accounting.",
        "Actual GPU allocation: it needs an external measurement.",
        "Whether your framework uses this 18-byte layout.",
    ],
};

static ALLOCATOR: MethodLesson = MethodLesson {
    interpretation: "Predicts the peak of PyTorch's allocator (torch.cuda.max_memory_allocated()) for one step of a real dense model run through transformers: inference with a cache, full fine-tuning or LoRA. The 0.75 GB overhead (CUDA context) stays outside the total and is added only to decide whether it fits 97 % of the GPU.",
    formulas: "total = weights + kv_cache + gradients + optimizer + max(activations + autocast_cache, step_workspace) · fits ⇔ total + overhead ≤ 97 % × nominal capacity",
    assumptions: &[
        "Dense models of the llama, mistral, qwen2, qwen3, gemma and gemma2 families; no experts, MLA or quantized checkpoints.",
        "Every term comes from the tensors the code keeps alive at the peak, not from a fit to the measurements.",
        "amp = fp32 weights under bf16 autocast; pure = weights trained in their dtype.",
        "Nothing else uses the GPU; 0.75 GB outside the allocator.",
    ],
    counterexample: "A mixture-of-experts model or one with latent attention (MLA): its live tensors are different, so the method is out of scope and its figure does not hold.",
    references: &[
        ("Seed 003, vramcalc 0.1.0", "vramcalc meta-llama/Llama-3.1-8B --train --lora 16 --precision pure --seq 4096 --gpu \"RTX 3090\": does not fit; one single adjustment (seq_len=512) fits."),
        ("docs/allocator-derivation.md", "Every term derived from the code of torch, transformers and peft, with citations."),
        ("Seed 003's measurements", "11 Llama-3.2-1B rows on an RTX A6000."),
    ],
    checked: &[
        "Units: integer bytes shown in decimal GB, as the seed does.",
        "The seed's 11 Llama-3.2-1B measurements, all within ±2 %.",
        "The terms of the seed's command-line example: weights 16.12 GB, gradients 0.05, optimizer 0.11, workspace 0.05.",
    ],
    not_checked: &[
        "Other models, cards and driver versions: the overhead may differ by a few hundred MB.",
        "Provider accounting and memory outside PyTorch.",
        "Extra conversions done by HF Trainer or Accelerate.",
    ],
};

static RANGE: MethodLesson = MethodLesson {
    interpretation: "A low and a high estimate per GPU, for serving or fine-tuning a real model, in decimal GB. The total shown is the high end (the conservative one). It fits comfortably when the high end is at most 90 % of one GPU; tightly when the low end fits.",
    formulas: "serving: low = weights + KV cache + 1 GB; high = 1.2 × weights + KV cache + 1 GB · fine-tuning: low = states + activations + 1 GB; high = 1.2 × (states + activations) + 1 GB",
    assumptions: &[
        "The cache follows the model's real layers: sliding-window, latent and linear ones.",
        "1 GB of runtime per GPU; the 20 % covers activations, buffers and fragmentation (EleutherAI's rule of thumb).",
        "Weights and cache are split evenly over up to 8 GPUs of one server.",
        "Full fine-tuning at 16 bytes per parameter; LoRA and QLoRA with rank-16 adapters.",
    ],
    counterexample: "An engine that reserves 92 % of the GPU up front (vLLM): the memory the model sees is not the nominal one, so “fits comfortably” may not follow.",
    references: &[
        ("Seed 001, “Calculator voor VRAM en modelgrootte”", "Formulas for weights, KV cache, ranges and the 90 % rule."),
        ("EleutherAI, Transformer Math 101", "≤ 20 % inference overhead; AdamW memory."),
        ("Rajbhandari et al., ZeRO", "16 bytes per parameter for mixed-precision Adam."),
    ],
    checked: &["Units: decimal GB per GPU.", "The method's documented examples in docs/methods/range.md."],
    not_checked: &["Provider accounting.", "Actual GPU allocation."],
};

static PLANNER: MethodLesson = MethodLesson {
    interpretation: "A per-GPU planning budget for serving or training one model over tensor and pipeline parallelism, replicas and users, with an indicative speed. The total is the most loaded GPU's, compared with the nominal memory less a 10 % reserve. Decimal GB.",
    formulas: "total = weights + adapters + KV cache + activations + logits + attention scores + gradients + optimizer + master weights + communication + offload staging + margin (15 %) + engine context (1 GiB) · usable = nominal × (1 − 10 %)",
    assumptions: &[
        "Quantized weights carry 5 % of metadata; embeddings and the output head (U) stay in BF16.",
        "The KV cache is paged in blocks of 16 tokens; a shared prefix is stored once, windows bound their layers, MLA keeps one latent per token.",
        "Users are spread over replicas; in each replica the batch decodes at once and the rest wait in a queue.",
        "Training is AdamW: 16 bytes per trained parameter, with an FP32 master copy.",
        "Speed is a roofline of bandwidth and compute, from conservative (35 % / 20 %) to favourable (70 % / 45 %).",
    ],
    counterexample: "An engine that reserves memory for CUDA graphs or a prefill buffer larger than the 2,048-token budget: with a full queue, “fits” is no longer assured.",
    references: &[
        ("Seed 002, “Metodología de memoria v0.3”", "Every term, the defaults (K = 20, margin 15 %, reserve 10 %, 16-token blocks) and speed as a roofline."),
        ("docs/methods/planner.md", "The symbols and the worked examples: GQA, MLA under TP, residency, prefix, blocks."),
        ("Kwon et al., PagedAttention (vLLM)", "A KV cache in fixed-size blocks, shared between sequences."),
    ],
    checked: &[
        "Units: decimal GB per GPU, the reserve apart from the margin.",
        "The seed's examples as tests: GQA 8B at 8,192 tokens, MLA under TP 2, 100 users over 8 replicas.",
        "That replicas, TP and PP divide the GPU count.",
    ],
    not_checked: &[
        "Real measurements: it is a planning figure.",
        "Kernels and fragmentation beyond the margin and the reserve.",
        "The speed of a real engine.",
    ],
};

static VLLM: MethodLesson = MethodLesson {
    interpretation: "What vLLM itself reports when `vllm serve` starts: the weights as loaded, the peak of its profiling run, the memory outside PyTorch, and the KV cache it makes of what is left of total × gpu_memory_utilization, in tokens and in requests of the full context. The ring holds the scenario's requests against that requested memory. Binary GiB, per GPU.",
    formulas: "requested = ⌈M × u⌉ · KV memory = requested − (weights + peak + non-torch) · blocks = ⌊KV memory / page⌋ · tokens = blocks × block size · concurrency = blocks / blocks per request · needed = weights + peak + non-torch + B × KV(L)",
    assumptions: &[
        "The GPU's total is what CUDA reports (79.19 GiB for an H100 80GB), from the catalog where it has it.",
        "vLLM's own defaults for the GPU: 8,192 batched tokens and 1,024 sequences on GPUs of 70 GiB or more (not A100s), else 2,048 and 256.",
        "Non-torch memory and CUDA graphs are constants measured on an H100, not derived.",
    ],
    counterexample: "A Mamba or linear-attention hybrid: vLLM lays out its state in pages this method does not derive, so it refuses the model.",
    references: &[
        ("vLLM `vllm/v1/worker/gpu_worker.py`, `determine_available_memory`", "requested memory less weights, peak and non-torch memory is the KV cache."),
        ("vLLM `vllm/v1/core/kv_cache_utils.py`", "Pages per layer, KV cache groups, blocks, tokens, concurrency and the start-up error."),
        ("docs/methods/vllm.md", "Every term, with the 47 start-up logs it is checked against."),
    ],
    checked: &[
        "47 real vLLM 0.19 start-up logs on an H100: weights within 1 %, KV memory within 0.21 GiB, KV tokens within 0.34 %.",
        "The error vLLM prints when one request of --max-model-len does not fit.",
    ],
    not_checked: &["Other GPUs than the H100 for non-torch memory and CUDA graphs.", "ROCm, speculative decoding, LoRA."],
};

static LLAMACPP: MethodLesson = MethodLesson {
    interpretation: "The GGUF file llama.cpp's tools would write for the model (a type per tensor, exact to the byte), the K and V caches of its context, its compute and output buffers, and how -ngl splits them between the GPU and host memory. The ring is the GPU, less the 1 GiB llama.cpp keeps free. Binary GiB.",
    formulas: "model size = Σ row(t_i, ne0) × ne1 × ne2 · K = Σ_layers row(t_k, H_kv × d) × n_ctx · V likewise with t_v · output = 4 × V × slots · GPU = weights + K + V + compute of the offloaded layers",
    assumptions: &[
        "llama-quantize's recipe for the file type (Q4_K_M keeps attn_v and ffn_down partly in Q6_K).",
        "n_ctx is the context rounded up to 256 cells; flash attention on (llama.cpp's auto).",
        "With -ngl on auto, the ring is every layer on the GPU, and the panel gives the split llama.cpp would choose.",
    ],
    counterexample: "A long context with a small GPU and -ngl on auto: llama.cpp still starts, with fewer layers on the GPU, and speed falls with every layer left on the host.",
    references: &[
        ("llama.cpp `src/llama-quant.cpp`, `llama_tensor_get_type`", "The type of every tensor for a file type."),
        ("llama.cpp `src/llama-kv-cache.cpp`, `src/llama-context.cpp`", "K and V caches per layer, context padding, output buffer."),
        ("docs/methods/llamacpp.md", "Every term, the offload rule and what is approximate."),
    ],
    checked: &[
        "llama.cpp's own size table for Llama-3.1-8B in nine types, within 0.11 %, and three llama-bench lines.",
        "The KV cache formula to the byte.",
    ],
    not_checked: &["Compute buffers: an approximation of ggml's graph allocator.", "Several GPUs, multimodal projectors."],
};
