#!/usr/bin/env python3
"""Measure the peak of PyTorch's caching allocator for one scenario.

The scenario is the one the `allocator` method models
(docs/allocator-derivation.md, section 2):

* inference: one `no_grad` forward over a prompt of `seq_len` tokens with
  `use_cache=True`;
* training: steady-state steps of `out = model(ids, labels=ids,
  use_cache=U)`, `out.loss.backward()`, `del out`, `optimizer.step()`,
  `optimizer.zero_grad(set_to_none=False)`; the last step is measured, so
  gradients and optimizer states already exist. amp runs the forward inside
  `torch.autocast`; checkpointing is `gradient_checkpointing_enable()`
  (transformers' default, reentrant); LoRA targets q/k/v/o with peft.
  `U` is `--use-cache` (transformers' default) or `--no-use-cache`: without
  a KV cache object transformers materializes the attention mask for sdpa,
  which changes the saved tensors (docs/allocator-derivation.md, §5.3); the
  row records it. Checkpointing turns the cache off whatever `U` says.

The model is built from a `config.json` with random weights
(`AutoModelForCausalLM.from_config`): nothing is downloaded. The result is
appended as one JSON line in the format of
`crates/vramfit-core/data/measurements/` (see its README).

Usage:
    python bench/measure.py --config CONFIG.json --mode lora --lora-rank 16 \
        --precision pure --seq-len 2048 --record results.jsonl
    python bench/measure.py --grid --record results.jsonl   # bench/grid.py
    python bench/measure.py --grid --dry-run                # list only

Exit codes: 0 ok, 1 a scenario failed, 2 no GPU (or torch missing),
3 bad arguments.

torch, transformers and peft are imported only when a measurement runs, so
the argument parsing and the scenario builder work (and are tested) without
them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_NO_GPU = 2
EXIT_BAD_ARGS = 3

MODES = ("inference", "full", "lora")
DTYPES = ("fp32", "bf16", "fp16")
ATTN_IMPLS = ("eager", "sdpa", "flash")
PRECISIONS = ("amp", "pure")
OPTIMIZERS = ("adamw", "sgd")
LORA_TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj")

SOURCE = "bench/measure.py"
NO_GPU_MESSAGE = (
    "measure.py needs a CUDA GPU and torch with CUDA support; none was found. "
    "Nothing was measured. Run it on a GPU machine (use --dry-run to list "
    "the scenarios here)."
)


class ScenarioError(ValueError):
    """A scenario that cannot be run as asked."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line. Pure: imports nothing heavy."""
    p = argparse.ArgumentParser(
        prog="measure.py",
        description="Record torch.cuda.max_memory_allocated() for one scenario.",
    )
    p.add_argument("--config", help="config.json, or a directory holding one")
    p.add_argument("--model-name", help="name recorded in the result (default: from the config)")
    p.add_argument("--mode", choices=MODES, default="inference")
    p.add_argument("--lora-rank", type=int, default=16)
    p.add_argument("--lora-dropout", type=float, default=0.05)
    p.add_argument("--dtype", choices=DTYPES, default="bf16")
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--seq-len", type=int, default=2048)
    p.add_argument("--attn-impl", choices=ATTN_IMPLS, default="sdpa")
    p.add_argument("--precision", choices=PRECISIONS, default="pure")
    p.add_argument("--grad-checkpoint", action="store_true")
    p.add_argument(
        "--use-cache",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="training: run the forward with use_cache=True (transformers' default) or not",
    )
    p.add_argument("--optimizer", choices=OPTIMIZERS, default="adamw")
    p.add_argument("--steps", type=int, default=2, help="training steps; the last is measured")
    p.add_argument("--record", help="append the result to this JSONL file")
    p.add_argument("--grid", action="store_true", help="run every scenario of bench/grid.py")
    p.add_argument("--configs-dir", help="where the grid's config files are")
    p.add_argument("--dry-run", action="store_true", help="print the scenarios, run nothing")
    return p.parse_args(argv)


def build_scenario(args: argparse.Namespace) -> dict:
    """The scenario dict recorded with a result, validated.

    Inference rows carry mode, dtype, batch, seq_len and attn_impl; training
    rows add precision, grad_checkpoint, use_cache, optimizer and steps, and
    LoRA rows lora_rank and lora_dropout.
    """
    if args.batch < 1 or args.seq_len < 1:
        raise ScenarioError("batch and seq_len must be at least 1")
    sc = {
        "mode": args.mode,
        "dtype": args.dtype,
        "batch": args.batch,
        "seq_len": args.seq_len,
        "attn_impl": args.attn_impl,
    }
    if args.mode == "inference":
        if args.grad_checkpoint:
            raise ScenarioError("gradient checkpointing applies to training only")
        if args.precision == "amp":
            raise ScenarioError("amp applies to training only; inference keeps weights in the dtype")
        return sc
    if args.steps < 2:
        raise ScenarioError("training needs at least 2 steps (the last one is measured)")
    if args.precision == "amp" and args.dtype == "fp32":
        raise ScenarioError("amp autocasts to bf16 or fp16; choose one of them as dtype")
    sc.update(
        {
            "precision": args.precision,
            "grad_checkpoint": bool(args.grad_checkpoint),
            "use_cache": bool(args.use_cache),
            "optimizer": args.optimizer,
            "steps": args.steps,
        }
    )
    if args.mode == "lora":
        if args.lora_rank < 1:
            raise ScenarioError("LoRA needs a rank of at least 1")
        if not 0.0 <= args.lora_dropout < 1.0:
            raise ScenarioError("lora_dropout must be in [0, 1)")
        sc["lora_rank"] = args.lora_rank
        sc["lora_dropout"] = args.lora_dropout
    return sc


def scenario_args(config: str, sc: dict, record: str | None = None) -> list[str]:
    """Command-line arguments that rebuild `sc` (used to run grid rows in
    separate processes, so that each starts from an empty allocator)."""
    out = [
        "--config", config,
        "--mode", sc["mode"],
        "--dtype", sc["dtype"],
        "--batch", str(sc["batch"]),
        "--seq-len", str(sc["seq_len"]),
        "--attn-impl", sc["attn_impl"],
    ]
    if sc["mode"] != "inference":
        out += ["--precision", sc["precision"], "--optimizer", sc["optimizer"]]
        out += ["--steps", str(sc["steps"])]
        if sc["grad_checkpoint"]:
            out.append("--grad-checkpoint")
        out.append("--use-cache" if sc["use_cache"] else "--no-use-cache")
    if sc["mode"] == "lora":
        out += ["--lora-rank", str(sc["lora_rank"]), "--lora-dropout", str(sc["lora_dropout"])]
    if record:
        out += ["--record", record]
    return out


def scenario_label(sc: dict) -> str:
    """A short human label, in the seed's table style."""
    parts = [sc["dtype"], f"b={sc['batch']}", f"s={sc['seq_len']}", sc["attn_impl"]]
    if sc["mode"] == "full":
        parts += ["full", sc["precision"]]
    elif sc["mode"] == "lora":
        parts += [f"lora={sc['lora_rank']}", sc["precision"]]
    if sc.get("grad_checkpoint"):
        parts.append("ckpt")
    if sc["mode"] != "inference" and not sc.get("use_cache", True):
        parts.append("nocache")
    return f"{sc['mode']} " + " ".join(parts)


def gb2(nbytes: int) -> str:
    """Decimal GB with two decimals, as the recorded files print them."""
    return f"{nbytes / 1e9:.2f}"


def make_record(
    scenario: dict,
    env: dict,
    model: str,
    config_name: str,
    buckets: dict | None,
    status: str = "ok",
) -> dict:
    """One JSONL row in the measurements format (see the README there)."""
    row = {
        "source": SOURCE,
        "gpu": env.get("gpu"),
        "gpu_memory_gb": env.get("gpu_memory_gb"),
        "driver": env.get("driver"),
        "cuda": env.get("cuda"),
        "torch": env.get("torch"),
        "transformers": env.get("transformers"),
        "peft": env.get("peft"),
        "model": model,
        "config": config_name,
        "scenario": scenario,
        "status": status,
    }
    if buckets is not None:
        total = int(buckets["total"])
        row["measured_total_gb"] = gb2(total)
        row["measured_total_bytes"] = total
        row["measured_rounding_bytes"] = 0
        row["buckets"] = {k: int(v) for k, v in buckets.items()}
    return row


def append_record(path: str, row: dict) -> None:
    """Append one JSON object as one line."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(row, separators=(",", ":")) + "\n")


def resolve_config(path: str) -> Path:
    """A config.json path from a file or a model directory."""
    p = Path(path)
    if p.is_dir():
        p = p / "config.json"
    if not p.is_file():
        raise ScenarioError(f"no config.json at {path}")
    return p


def model_name_of(config_path: Path) -> str:
    """The recorded model name: the file name without `.json` and without
    the `org__` prefix used in data/configs, or the directory name."""
    if config_path.name == "config.json":
        return config_path.parent.name
    stem = config_path.stem
    return stem.split("__", 1)[-1]


def probe_gpu() -> tuple[bool, str]:
    """(True, '') when torch sees a CUDA device, else (False, why)."""
    try:
        import torch  # noqa: PLC0415  (imported only to measure)
    except ImportError:
        return False, "torch is not installed"
    if not torch.cuda.is_available():
        return False, "torch.cuda.is_available() is False"
    return True, ""


def environment() -> dict:
    """GPU name and size, driver, CUDA and library versions."""
    import peft  # noqa: PLC0415
    import torch  # noqa: PLC0415
    import transformers  # noqa: PLC0415

    props = torch.cuda.get_device_properties(0)
    driver = None
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=30, check=False,
        )
        driver = out.stdout.strip().splitlines()[0] if out.stdout.strip() else None
    except (OSError, subprocess.SubprocessError):
        driver = None
    return {
        "gpu": props.name,
        "gpu_memory_gb": round(props.total_memory / 1e9, 2),
        "driver": driver,
        "cuda": torch.version.cuda,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "peft": peft.__version__,
    }


def measure(config_path: Path, sc: dict) -> dict:
    """Run the scenario on the GPU; return the five buckets in bytes.

    weights: allocated after the model (and adapters) are on the GPU;
    states: allocated just before the measured step, minus weights
    (gradients, optimizer states, the cuBLAS workspace);
    peak: max allocated during the measured step minus what was allocated
    before it; total: max allocated during the measured step;
    overhead: device memory in use outside the allocator's reservations.
    """
    import torch  # noqa: PLC0415
    from transformers import AutoConfig, AutoModelForCausalLM  # noqa: PLC0415

    dtypes = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
    compute = dtypes[sc["dtype"]]
    training = sc["mode"] != "inference"
    amp = training and sc["precision"] == "amp"
    weight_dtype = torch.float32 if amp else compute
    attn = {"eager": "eager", "sdpa": "sdpa", "flash": "flash_attention_2"}[sc["attn_impl"]]

    torch.manual_seed(0)
    config = AutoConfig.from_pretrained(str(config_path), local_files_only=True)
    with torch.device("cuda"):
        try:
            model = AutoModelForCausalLM.from_config(config, dtype=weight_dtype, attn_implementation=attn)
        except TypeError:
            model = AutoModelForCausalLM.from_config(config, torch_dtype=weight_dtype, attn_implementation=attn)
    if training and sc["grad_checkpoint"]:
        model.gradient_checkpointing_enable()
    if sc["mode"] == "lora":
        from peft import LoraConfig, get_peft_model  # noqa: PLC0415

        for p in model.parameters():
            p.requires_grad_(False)
        lora = LoraConfig(
            r=sc["lora_rank"],
            lora_alpha=2 * sc["lora_rank"],
            lora_dropout=sc["lora_dropout"],
            target_modules=list(LORA_TARGETS),
            task_type="CAUSAL_LM",
        )
        model = get_peft_model(model, lora)
    torch.cuda.synchronize()
    weights = torch.cuda.memory_allocated()

    vocab = config.vocab_size
    ids = torch.randint(0, vocab, (sc["batch"], sc["seq_len"]), device="cuda")

    if not training:
        model.eval()
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        with torch.no_grad():
            out = model(input_ids=ids, use_cache=True)
        torch.cuda.synchronize()
        total = torch.cuda.max_memory_allocated()
        del out
        states = before - weights
    else:
        model.train()
        params = [p for p in model.parameters() if p.requires_grad]
        if sc["optimizer"] == "adamw":
            opt = torch.optim.AdamW(params, lr=1e-5, foreach=True)
        else:
            opt = torch.optim.SGD(params, lr=1e-5, momentum=0.9, foreach=True)
        autocast = torch.autocast("cuda", dtype=compute, enabled=amp)
        before = states = total = 0
        for step in range(sc["steps"]):
            last = step == sc["steps"] - 1
            if last:
                torch.cuda.synchronize()
                before = torch.cuda.memory_allocated()
                states = before - weights
                torch.cuda.reset_peak_memory_stats()
            with autocast:
                out = model(input_ids=ids, labels=ids, use_cache=sc["use_cache"])
            out.loss.backward()
            del out
            opt.step()
            opt.zero_grad(set_to_none=False)
        torch.cuda.synchronize()
        total = torch.cuda.max_memory_allocated()
    free, device_total = torch.cuda.mem_get_info()
    overhead = max(0, device_total - free - torch.cuda.memory_reserved())
    return {
        "weights": weights,
        "states": states,
        "peak": total - before,
        "total": total,
        "overhead": overhead,
    }


def run_one(args: argparse.Namespace) -> int:
    """Measure one scenario and append its row."""
    try:
        sc = build_scenario(args)
        config_path = resolve_config(args.config or "")
    except ScenarioError as e:
        print(f"measure.py: {e}", file=sys.stderr)
        return EXIT_BAD_ARGS
    if args.dry_run:
        print(f"{model_name_of(config_path)}: {scenario_label(sc)}")
        return EXIT_OK
    ok, why = probe_gpu()
    if not ok:
        print(f"{NO_GPU_MESSAGE} ({why})", file=sys.stderr)
        return EXIT_NO_GPU
    import torch  # noqa: PLC0415

    env = environment()
    model = args.model_name or model_name_of(config_path)
    try:
        buckets = measure(config_path, sc)
        row = make_record(sc, env, model, config_path.name, buckets)
        code = EXIT_OK
    except torch.cuda.OutOfMemoryError:
        row = make_record(sc, env, model, config_path.name, None, status="oom")
        code = EXIT_OK
    print(json.dumps(row, separators=(",", ":")))
    if args.record:
        append_record(args.record, row)
    return code


def run_grid(args: argparse.Namespace) -> int:
    """Every grid scenario, each in its own process."""
    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here))
    import grid  # noqa: PLC0415

    configs_dir = Path(args.configs_dir) if args.configs_dir else grid.default_configs_dir()
    rows = grid.scenarios()
    if args.dry_run:
        for config, sc in rows:
            print(f"{config}: {scenario_label(sc)}")
        print(f"{len(rows)} scenarios")
        return EXIT_OK
    ok, why = probe_gpu()
    if not ok:
        print(f"{NO_GPU_MESSAGE} ({why})", file=sys.stderr)
        return EXIT_NO_GPU
    failed = 0
    for config, sc in rows:
        cmd = [sys.executable, str(here / "measure.py")]
        cmd += scenario_args(str(configs_dir / config), sc, args.record)
        code = subprocess.run(cmd, check=False, env=dict(os.environ)).returncode
        if code != EXIT_OK:
            failed += 1
            print(f"measure.py: {config}: {scenario_label(sc)} exited {code}", file=sys.stderr)
    return EXIT_FAILED if failed else EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.grid:
        return run_grid(args)
    return run_one(args)


if __name__ == "__main__":
    sys.exit(main())
