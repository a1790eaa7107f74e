"""CPU tests of the measurement harness: argument parsing, the scenario
builder, the record format and the grid. Standard library only; torch,
transformers and peft need not be installed.

Run: python -m unittest discover -s bench -p "test_*.py"
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

_TORCH_BEFORE = "torch" in sys.modules
import grid  # noqa: E402
import measure  # noqa: E402

SEED_ROWS = HERE.parent / "crates" / "vramfit-core" / "data" / "measurements" / "vramcalc-llama-3.2-1b.jsonl"


def build(argv: list[str]) -> dict:
    return measure.build_scenario(measure.parse_args(argv))


class ImportTests(unittest.TestCase):
    def test_import_does_not_load_torch(self):
        if not _TORCH_BEFORE:
            self.assertNotIn("torch", sys.modules)
            self.assertNotIn("transformers", sys.modules)
            self.assertNotIn("peft", sys.modules)


class ParseTests(unittest.TestCase):
    def test_defaults(self):
        a = measure.parse_args([])
        self.assertEqual(a.mode, "inference")
        self.assertEqual(a.dtype, "bf16")
        self.assertEqual((a.batch, a.seq_len), (1, 2048))
        self.assertEqual(a.attn_impl, "sdpa")
        self.assertEqual(a.precision, "pure")
        self.assertFalse(a.grad_checkpoint)
        self.assertEqual(a.optimizer, "adamw")
        self.assertEqual(a.steps, 2)

    def test_rejects_unknown_choice(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            measure.parse_args(["--dtype", "int8"])


class ScenarioTests(unittest.TestCase):
    def test_inference_has_only_inference_fields(self):
        sc = build(["--seq-len", "4096", "--attn-impl", "eager"])
        self.assertEqual(
            sc,
            {"mode": "inference", "dtype": "bf16", "batch": 1, "seq_len": 4096, "attn_impl": "eager"},
        )

    def test_full_training(self):
        sc = build(["--mode", "full", "--precision", "amp", "--grad-checkpoint"])
        self.assertEqual(sc["precision"], "amp")
        self.assertTrue(sc["grad_checkpoint"])
        self.assertEqual(sc["optimizer"], "adamw")
        self.assertNotIn("lora_rank", sc)

    def test_training_records_use_cache(self):
        self.assertTrue(build(["--mode", "full"])["use_cache"])
        sc = build(["--mode", "full", "--no-use-cache"])
        self.assertFalse(sc["use_cache"])
        self.assertIn("--no-use-cache", measure.scenario_args("c.json", sc))
        self.assertEqual(measure.scenario_label(sc), "full bf16 b=1 s=2048 sdpa full pure nocache")
        self.assertNotIn("use_cache", build([]))

    def test_lora_records_rank_and_dropout(self):
        sc = build(["--mode", "lora", "--lora-rank", "8", "--lora-dropout", "0"])
        self.assertEqual((sc["lora_rank"], sc["lora_dropout"]), (8, 0.0))

    def test_invalid_scenarios(self):
        bad = [
            ["--batch", "0"],
            ["--seq-len", "0"],
            ["--grad-checkpoint"],
            ["--precision", "amp"],
            ["--mode", "lora", "--lora-rank", "0"],
            ["--mode", "lora", "--lora-dropout", "1.0"],
            ["--mode", "full", "--precision", "amp", "--dtype", "fp32"],
            ["--mode", "full", "--steps", "1"],
        ]
        for argv in bad:
            with self.subTest(argv=argv), self.assertRaises(measure.ScenarioError):
                build(argv)

    def test_scenario_args_round_trip(self):
        for _, sc in grid.scenarios():
            with self.subTest(sc=sc):
                argv = measure.scenario_args("cfg.json", sc)
                self.assertEqual(build(argv), sc)

    def test_label_matches_seed_style(self):
        sc = build(["--mode", "full", "--grad-checkpoint"])
        self.assertEqual(measure.scenario_label(sc), "full bf16 b=1 s=2048 sdpa full pure ckpt")


class RecordTests(unittest.TestCase):
    ENV = {
        "gpu": "NVIDIA H200",
        "gpu_memory_gb": 150.02,
        "driver": "570.00",
        "cuda": "12.8",
        "torch": "2.9.0",
        "transformers": "4.57.6",
        "peft": "0.21.2",
    }

    def test_record_shares_the_seed_format(self):
        sc = build(["--mode", "lora", "--lora-rank", "16"])
        buckets = {"weights": 1, "states": 2, "peak": 3, "total": 10_130_000_000, "overhead": 4}
        row = measure.make_record(sc, self.ENV, "Llama-3.2-1B", "x.json", buckets)
        seed = json.loads(SEED_ROWS.read_text().splitlines()[0])
        shared = {k for k in seed if not k.startswith("vramcalc_") and k != "checkpoint"}
        self.assertTrue(shared <= set(row), shared - set(row))
        self.assertEqual(row["measured_total_gb"], "10.13")
        self.assertEqual(row["measured_total_bytes"], 10_130_000_000)
        self.assertEqual(row["measured_rounding_bytes"], 0)
        self.assertEqual(row["status"], "ok")
        self.assertEqual(row["source"], "bench/measure.py")

    def test_oom_record_has_no_measurement(self):
        sc = build([])
        row = measure.make_record(sc, self.ENV, "m", "x.json", None, status="oom")
        self.assertEqual(row["status"], "oom")
        self.assertNotIn("measured_total_bytes", row)

    def test_append_writes_one_line_per_row(self):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "out.jsonl"
            measure.append_record(str(path), {"a": 1})
            measure.append_record(str(path), {"a": 2})
            lines = path.read_text().splitlines()
            self.assertEqual([json.loads(x)["a"] for x in lines], [1, 2])

    def test_gb2_rounds_to_two_decimals(self):
        self.assertEqual(measure.gb2(3_081_000_000), "3.08")
        self.assertEqual(measure.gb2(17_167_000_000), "17.17")


class ConfigTests(unittest.TestCase):
    def test_config_from_file_or_directory(self):
        with tempfile.TemporaryDirectory() as d:
            cfg = Path(d) / "config.json"
            cfg.write_text("{}")
            self.assertEqual(measure.resolve_config(d), cfg)
            self.assertEqual(measure.resolve_config(str(cfg)), cfg)
            with self.assertRaises(measure.ScenarioError):
                measure.resolve_config(str(Path(d) / "missing"))

    def test_model_name(self):
        self.assertEqual(measure.model_name_of(Path("x/meta-llama__Llama-3.2-1B.json")), "Llama-3.2-1B")
        self.assertEqual(measure.model_name_of(Path("models/Qwen3-4B/config.json")), "Qwen3-4B")


class NoGpuTests(unittest.TestCase):
    def run_main(self, argv: list[str]) -> tuple[int, str]:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            with mock.patch.object(measure, "probe_gpu", return_value=(False, "no device")):
                code = measure.main(argv)
        return code, err.getvalue()

    def test_refuses_without_gpu_with_exit_2(self):
        with tempfile.TemporaryDirectory() as d:
            cfg = Path(d) / "config.json"
            cfg.write_text("{}")
            code, err = self.run_main(["--config", str(cfg)])
        self.assertEqual(code, measure.EXIT_NO_GPU)
        self.assertIn("needs a CUDA GPU", err)

    def test_grid_refuses_without_gpu(self):
        code, err = self.run_main(["--grid"])
        self.assertEqual(code, 2)
        self.assertIn("needs a CUDA GPU", err)

    def test_probe_without_torch(self):
        with mock.patch.dict(sys.modules, {"torch": None}):
            ok, why = measure.probe_gpu()
        self.assertFalse(ok)
        self.assertIn("torch", why)

    def test_dry_run_needs_no_gpu(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = measure.main(["--grid", "--dry-run"])
        self.assertEqual(code, 0)
        self.assertIn("scenarios", out.getvalue())

    def test_bad_arguments_exit_3(self):
        code, _ = self.run_main(["--config", "/nonexistent/config.json"])
        self.assertEqual(code, measure.EXIT_BAD_ARGS)


class GridTests(unittest.TestCase):
    def test_at_least_forty_valid_scenarios(self):
        rows = grid.scenarios()
        self.assertGreaterEqual(len(rows), 40)
        for config, sc in rows:
            with self.subTest(config=config, sc=sc):
                self.assertTrue((grid.default_configs_dir() / config).is_file(), config)
                self.assertEqual(build(measure.scenario_args(config, sc)), sc)

    def test_covers_families_modes_and_attention(self):
        rows = grid.scenarios()
        families = {c.split("__")[1].split("-")[0].lower() for c, _ in rows}
        self.assertTrue({"llama", "qwen2.5", "qwen3", "gemma", "mistral"} <= families, families)
        self.assertEqual({sc["mode"] for _, sc in rows}, {"inference", "full", "lora"})
        self.assertTrue({"sdpa", "eager"} <= {sc["attn_impl"] for _, sc in rows})
        training = [sc for _, sc in rows if sc["mode"] != "inference"]
        combos = {(sc["mode"], sc["precision"], sc["grad_checkpoint"]) for sc in training}
        for combo in [("full", "pure", False), ("full", "pure", True), ("full", "amp", False), ("full", "amp", True)]:
            self.assertIn(combo, combos)
        inference = [sc for _, sc in rows if sc["mode"] == "inference"]
        self.assertGreaterEqual(len({sc["seq_len"] for sc in inference}), 4)
        self.assertGreaterEqual(len({sc["batch"] for sc in inference}), 3)

    def test_seed_rows_are_in_the_grid(self):
        rows = [sc for c, sc in grid.scenarios() if c == grid.LLAMA_1B]
        for line in SEED_ROWS.read_text().splitlines():
            seed = json.loads(line)["scenario"]
            with self.subTest(seed=seed):
                self.assertTrue(any(all(sc.get(k) == v for k, v in seed.items()) for sc in rows))


if __name__ == "__main__":
    unittest.main()
