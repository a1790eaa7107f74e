//! "How to read the results": each method's summary, assumptions,
//! units and what it leaves out.

use crate::i18n::Interpretation;
use vramfit_core::methods::MethodId;

pub(super) fn interpretation(method: MethodId) -> Interpretation {
    match method {
        MethodId::Quick => Interpretation {
            summary: "Memory to serve the model on one GPU: weights + KV cache + a percentage of overhead (after the “Before downloading a model or renting a GPU” calculator).",
            assumptions: &[
                "Weights = parameters × bits per weight / 8: ideal storage, with no quantization metadata beyond what the chosen format includes.",
                "Dense KV cache: 2 × layers × KV heads × head dimension × context × sequences × bytes; every layer is treated as full attention.",
                "Overhead is a flat percentage of weights + KV (10–20 % is reasonable): activations, CUDA context and buffers.",
                "It fits when the total does not exceed the GPU's nominal memory.",
            ],
            units: "Decimal GB (10⁹ bytes), as GPUs are marketed. The exported JSON carries the exact bytes.",
            leaves_out: &[
                "Training (use lesson or allocator).",
                "Sliding windows and latent attention: the cache is counted in full.",
                "Kernels, the allocator and measured peaks; several GPUs.",
            ],
        },
        MethodId::Lesson => Interpretation {
            summary: "A one-device estimate after the GPU memory estimator's lesson: weights and KV cache, or 18 bytes per parameter when training, plus your reserves and a margin.",
            assumptions: &[
                "Inference uses ideal weight storage and a dense KV cache.",
                "Full training uses 18 bytes/parameter: 2 working-weight + 4 master-weight + 4 gradient + 8 Adam-moment bytes (mixed-precision AdamW), and no KV cache.",
                "The runtime and activation reserves count in both modes; the margin multiplies the subtotal with reserves.",
            ],
            units: "GiB = 2³⁰ bytes. States = parameters × 18 bytes. KV = 2 × layers × KV heads × dimension × sequence × batch × bytes.",
            leaves_out: &[
                "Quantization metadata, kernels, real activations and allocators: the reserves stand in for them.",
                "LoRA, sharding, offload and measured peaks.",
                "The 18 bytes are one dtype layout, not a constant of every framework.",
            ],
        },
        MethodId::Allocator => Interpretation {
            summary: "PyTorch's peak (torch.cuda.max_memory_allocated) for one step of a dense model under transformers, derived from the tensors kept alive (vramcalc 0.1.0).",
            assumptions: &[
                "Total = weights + KV cache + gradients + optimizer + max(activations + autocast copies, step workspace).",
                "It fits when total + 0.75 GB of overhead ≤ 97 % of nominal memory.",
                "A steady-state step: optimizer states already exist; LoRA on q/k/v/o_proj.",
            ],
            units: "Exact bytes; shown in GB (10⁹) or GiB (2³⁰) as the switch says.",
            leaves_out: &[
                "Mixture of experts, latent attention, linear layers and quantized checkpoints.",
                "Allocator fragmentation (memory_reserved) and memory outside PyTorch, beyond the fixed overhead.",
                "Other serving frameworks (vLLM, llama.cpp).",
            ],
        },
        MethodId::Range => Interpretation {
            summary: "A low and a high estimate per GPU for serving or fine-tuning a real model (after the VRAM and model size calculator).",
            assumptions: &[
                "Serving: low = weights/n + KV cache/n + 1 GB; high = 1.2 × weights/n + KV cache/n + 1 GB (the 20 % covers activations, buffers and fragmentation, after EleutherAI's rule of thumb).",
                "8- and 4-bit formats keep the embeddings and the output head at 16 bits; the cache counts each layer by its kind (full, sliding window, MLA, linear).",
                "Fine-tuning: 16 bytes/parameter (full) or rank-r LoRA/QLoRA adapters at 16 bytes, activations under full gradient checkpointing and FP32 logits.",
                "Weights and cache split evenly over up to 8 GPUs of one server; the runtime counts on every GPU.",
            ],
            units: "Decimal GB (10⁹ bytes), for the most loaded GPU. The source's verdict: comfortable when the high end uses ≤ 90 % of memory; tight when the low end fits.",
            leaves_out: &[
                "More than 8 GPUs or several machines.",
                "Speed and user queues.",
                "Measured peaks and each engine's behaviour.",
            ],
        },
        MethodId::Planner => Interpretation {
            summary: "A per-GPU planning budget (after the memory methodology v0.3) for serving or training over tensor and pipeline parallelism, replicas and concurrent sequences.",
            assumptions: &[
                "Total = weights + adapters + KV cache + activations + logits + attention scores + gradients + optimizer + master weights + communication + offload staging, plus a margin (15 %) and the engine context (1 GiB per GPU).",
                "Usable = nominal memory × (1 − 10 % reserve).",
                "Paged KV cache in blocks of 16 tokens, with shared prefix and windows; quantization metadata of 5 %.",
                "Speed is a roofline of bandwidth and compute, from conservative (35 % / 20 %) to favourable (70 % / 45 %).",
            ],
            units: "Decimal GB (10⁹ bytes) for the most loaded GPU; speed in tokens/s per user and seconds of prefill.",
            leaves_out: &[
                "Speed when training, with MoE, MLA, sliding windows, TP/PP > 1 or offload.",
                "Real measurements: it is a planning figure.",
                "Kernels and fragmentation beyond the margin and the reserve.",
            ],
        },
        MethodId::Vllm => crate::i18n::engine_texts(crate::i18n::Lang::En)
            .map_or(crate::i18n::Interpretation::NOT_LOADED, |t| t.vllm_interpretation),
        MethodId::Llamacpp => crate::i18n::engine_texts(crate::i18n::Lang::En)
            .map_or(crate::i18n::Interpretation::NOT_LOADED, |t| t.llamacpp_interpretation),
    }
}
