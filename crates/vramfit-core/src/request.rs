//! A request: which method answers which scenario. It is what the app and
//! the CLI hold and what every document stores (the `inputs` of
//! `vramfit/1`, the kit's examples, the notebook's entries, the share
//! link): the method's name, then the scenario's keys, in one flat object.
//!
//! Here too is the editor's policy, above the methods: which method to use
//! when none was chosen ([`preferred`]), keeping a method chosen on
//! purpose when the mode or the model changes
//! ([`Request::change_keeping_choice`]) and saying when it did not
//! ([`MethodSwitch`]), and weighing a real model as published unless a
//! format was chosen on purpose ([`ScenarioInput::follows_checkpoint`]).

use crate::methods::{self, MethodId, MethodResult, RunError};
use crate::scenario::{Mode, ModelRef, Scenario, ScenarioError, ScenarioInput, WeightFormat};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which method, about which scenario.
///
/// In JSON, one object: `method` first, then every key of the scenario;
/// missing keys take the defaults (seed 004's worked example, method
/// `quick`), unknown keys are rejected.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The method that produces the headline estimate.
    #[serde(default)]
    pub method: MethodId,
    /// What is asked about.
    #[serde(flatten)]
    pub scenario: ScenarioInput,
}

/// Why a request gives no estimate: the scenario is not valid, or it is
/// and the chosen method does not estimate it.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestError {
    /// Every field, model, GPU or knob that is not accepted.
    Invalid(Vec<ScenarioError>),
    /// The method refused a valid scenario.
    Refused(RunError),
}

impl fmt::Display for RequestError {
    /// Every problem, separated by commas, in one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestError::Invalid(errors) => {
                let all: Vec<String> = errors.iter().map(ToString::to_string).collect();
                f.write_str(&all.join(", "))
            }
            RequestError::Refused(e) => e.fmt(f),
        }
    }
}

/// A method the editor changed without being asked (the person chose a
/// model or a mode), so that the page can say so and undo it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MethodSwitch {
    /// The method before the change.
    pub from: MethodId,
    /// The method now.
    pub to: MethodId,
    /// Why.
    pub why: SwitchReason,
}

/// Why the editor changed the method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SwitchReason {
    /// The method followed the preference ([`preferred`]), and the
    /// preference for the new scenario is another method.
    Preferred,
    /// The method chosen on purpose does not estimate the new scenario.
    NoLongerApplies,
}

impl ScenarioInput {
    /// Whether the weight format follows the model's checkpoint: it was
    /// never chosen (the default 16 bits, no named format) or it is "as
    /// published" already. A format chosen on purpose stays.
    pub fn follows_checkpoint(&self) -> bool {
        match self.weight_format {
            Some(WeightFormat::AsPublished) => true,
            Some(_) => false,
            None => self.weight_bits == ScenarioInput::default().weight_bits,
        }
    }

    /// Sets the model, weighing it as published when the format follows the
    /// checkpoint ([`ScenarioInput::follows_checkpoint`]); without a model,
    /// such a format goes back to the default (16 bits).
    pub fn set_model_following_checkpoint(&mut self, model: Option<ModelRef>) {
        let follows = self.follows_checkpoint();
        self.model = model;
        if follows {
            match self.model {
                Some(_) => self.set_weight_format(WeightFormat::AsPublished),
                None => {
                    self.weight_format = None;
                    self.weight_bits = ScenarioInput::default().weight_bits;
                }
            }
        }
    }
}

/// Whether gradient checkpointing is on when a training scenario does not
/// say: on, as the common fine-tuning trainer sets it. TRL's `SFTConfig`
/// (v1.9.0, `trl/trainer/sft_config.py`: "`gradient_checkpointing`:
/// Defaults to `True` instead of `False`") is what SFT, LoRA and QLoRA
/// recipes run (PEFT sets no default of its own: the trainer's holds);
/// transformers' plain `TrainingArguments` default is `False`, which a
/// scenario gets by saying so (`--no-grad-checkpoint`). The stored
/// documents keep their own value (`grad_checkpoint` is always written).
pub const TRAINER_GRAD_CHECKPOINT: bool = true;

impl Request {
    /// `method` about `scenario`.
    pub fn new(method: MethodId, scenario: ScenarioInput) -> Request {
        Request { method, scenario }
    }

    /// Validates the scenario and runs the method on it.
    pub fn run(&self) -> Result<MethodResult, RequestError> {
        let scenario = self.scenario.validate().map_err(RequestError::Invalid)?;
        methods::run(self.method, &scenario).map_err(RequestError::Refused)
    }

    /// The most complete method that estimates this scenario
    /// ([`preferred`]), if the scenario is valid.
    pub fn preferred_method(&self) -> Option<MethodId> {
        self.scenario.validate().ok().and_then(|s| preferred(&s))
    }

    /// Switches to `mode`, keeping the method when it was chosen on purpose
    /// and still applies, else taking the most complete one that does (see
    /// [`Request::change_keeping_choice`]); the switch, if the method
    /// changed.
    ///
    /// ```
    /// use vramfit_core::{methods::MethodId, request::Request, scenario::Mode};
    /// let mut request = Request::default(); // quick, inference
    /// let switch = request.set_mode(Mode::Full).unwrap();
    /// assert_eq!(request.method, MethodId::Lesson); // typed numbers: lesson
    /// assert_eq!((switch.from, switch.to), (MethodId::Quick, MethodId::Lesson));
    /// ```
    pub fn set_mode(&mut self, mode: Mode) -> Option<MethodSwitch> {
        self.change_keeping_choice(|s| s.mode = mode)
    }

    /// Sets the model, weighed as published unless a format was chosen on
    /// purpose ([`ScenarioInput::set_model_following_checkpoint`]), and
    /// re-picks the method like [`Request::set_mode`].
    ///
    /// ```
    /// use vramfit_core::{methods::MethodId, request::Request};
    /// use vramfit_core::scenario::{ModelRef, WeightFormat};
    /// let mut request = Request::default();
    /// request.set_model(Some(ModelRef::Catalog("openai/gpt-oss-20b".into())));
    /// assert_eq!(request.scenario.weight_format, Some(WeightFormat::AsPublished));
    /// assert_eq!(request.method, MethodId::Planner);
    /// ```
    pub fn set_model(&mut self, model: Option<ModelRef>) -> Option<MethodSwitch> {
        self.change_keeping_choice(|s| s.set_model_following_checkpoint(model))
    }

    /// Applies `change` (a new mode or model) to the scenario. A method the
    /// person picked themselves — one that differs from what
    /// [`Self::preferred_method`] gave before the change — stays while it
    /// still estimates the scenario; otherwise the method follows the
    /// preference again, so a real dense model opens on the allocator for
    /// training and on the planner for serving. Returns the switch when the
    /// method changed (the person did not ask for it: the page says so).
    pub fn change_keeping_choice(
        &mut self,
        change: impl FnOnce(&mut ScenarioInput),
    ) -> Option<MethodSwitch> {
        let from = self.method;
        let followed_default = self.preferred_method() == Some(self.method);
        change(&mut self.scenario);
        let still_applies = self.run().is_ok();
        if followed_default || !still_applies {
            if let Some(m) = self.preferred_method() {
                self.method = m;
            }
        }
        (self.method != from).then_some(MethodSwitch {
            from,
            to: self.method,
            why: match still_applies {
                true => SwitchReason::Preferred,
                false => SwitchReason::NoLongerApplies,
            },
        })
    }
}

/// Which method to use when none is asked for, serving: the most complete
/// that estimates the scenario (seed 002's planner needs the model's hidden
/// size and vocabulary; quick covers anything typed).
pub const PREFERENCE_SERVING: [MethodId; 5] = [
    MethodId::Planner,
    MethodId::Allocator,
    MethodId::Range,
    MethodId::Quick,
    MethodId::Lesson,
];

/// The same for training: the allocator's measured-against derivation
/// first, where it applies (dense models, unquantized).
pub const PREFERENCE_TRAINING: [MethodId; 5] = [
    MethodId::Allocator,
    MethodId::Planner,
    MethodId::Range,
    MethodId::Lesson,
    MethodId::Quick,
];

/// The first method of the mode's preference list ([`PREFERENCE_SERVING`],
/// [`PREFERENCE_TRAINING`]) that estimates `scenario`.
pub fn preferred(scenario: &Scenario) -> Option<MethodId> {
    // A GGUF file is what llama.cpp runs: its own tensors are sized there.
    let gguf = scenario
        .model_config
        .as_ref()
        .is_some_and(|c| c.gguf().is_some());
    if gguf && methods::run(MethodId::Llamacpp, scenario).is_ok() {
        return Some(MethodId::Llamacpp);
    }
    let order = if scenario.mode.trains() {
        PREFERENCE_TRAINING
    } else {
        PREFERENCE_SERVING
    };
    order
        .into_iter()
        .find(|m| methods::run(*m, scenario).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::Refusal;
    use crate::scenario::{Knob, KnobProblem, PlannerError};
    use crate::units::Bytes;

    #[test]
    fn json_is_one_flat_object_with_the_method_first() {
        let request = Request::new(
            MethodId::Planner,
            ScenarioInput {
                context: 4096,
                ..ScenarioInput::default()
            },
        );
        let text = serde_json::to_string(&request).unwrap();
        assert!(
            text.starts_with(r#"{"method":"planner","mode":"inference","#),
            "{text}"
        );
        let back: Request = serde_json::from_str(&text).unwrap();
        assert_eq!(back, request);
        // Missing keys take the defaults; the method too.
        let short: Request = serde_json::from_str(r#"{"context": 4096}"#).unwrap();
        assert_eq!(short.method, MethodId::Quick);
        assert_eq!(short.scenario.context, 4096);
        assert_eq!(short.scenario.layers, 32);
    }

    #[test]
    fn unknown_keys_are_rejected_by_name() {
        let err = serde_json::from_str::<Request>(r#"{"layerz": 3}"#).unwrap_err();
        assert!(err.to_string().contains("layerz"), "{err}");
        let err = serde_json::from_str::<Request>(r#"{"method": "astrology"}"#).unwrap_err();
        assert!(err.to_string().contains("astrology"), "{err}");
        let err = serde_json::from_str::<Request>(r#"{"planner": {"hidden": 1}}"#).unwrap_err();
        assert!(err.to_string().contains("hidden"), "{err}");
    }

    #[test]
    fn a_method_chosen_on_purpose_stays_while_it_applies() {
        let mut request = Request::new(MethodId::Range, ScenarioInput::default());
        request.set_model(Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())));
        assert_eq!(request.method, MethodId::Range);
        // Followed the preference: follows it again, and says so.
        let mut request = Request::default();
        let switch = request.set_model(Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())));
        assert_eq!(request.method, MethodId::Planner);
        assert_eq!(
            switch,
            Some(MethodSwitch {
                from: MethodId::Quick,
                to: MethodId::Planner,
                why: SwitchReason::Preferred
            })
        );
        request.set_mode(Mode::Full);
        assert_eq!(request.method, MethodId::Allocator);
        // The same method again: nothing to announce.
        assert_eq!(
            request.set_model(Some(ModelRef::Catalog("Qwen/Qwen3-8B".into()))),
            None
        );
        // A choice that no longer applies gives way.
        let mut request = Request::new(MethodId::Range, ScenarioInput::default());
        request.set_model(Some(ModelRef::Catalog("meta-llama/Llama-3.1-8B".into())));
        let switch = request.set_model(None).unwrap();
        assert_eq!(request.method, MethodId::Quick);
        assert_eq!(switch.why, SwitchReason::NoLongerApplies);
    }

    #[test]
    fn a_real_model_is_weighed_as_published_unless_a_format_was_chosen() {
        let oss = || Some(ModelRef::Catalog("openai/gpt-oss-20b".into()));
        let mut request = Request::default();
        request.set_model(oss());
        assert_eq!(
            request.scenario.weight_format,
            Some(WeightFormat::AsPublished)
        );
        // Back to typed numbers: back to the default 16 bits.
        request.set_model(None);
        assert_eq!(request.scenario.weight_format, None);
        assert_eq!(request.scenario.weight_bits, 16.0);
        assert!(request.run().is_ok());
        // A format chosen on purpose stays.
        request.scenario.set_weight_format(WeightFormat::Q4KM);
        request.set_model(oss());
        assert_eq!(request.scenario.weight_format, Some(WeightFormat::Q4KM));
        let mut bits = Request::default();
        bits.scenario.weight_bits = 5.0;
        bits.set_model(oss());
        assert_eq!(bits.scenario.weight_format, None);
    }

    /// The planner's knobs that contradict the workload once rejected the
    /// scenario for every method; now they are the planner's refusal and
    /// the other methods still estimate it.
    #[test]
    fn a_planner_knob_refuses_the_planner_only() {
        let mut scenario = ScenarioInput {
            host_ram_gb: 10.0,
            ..ScenarioInput::default()
        };
        scenario.planner.offload_gb = 9.0;
        scenario.planner.hidden_size = Some(4096);
        scenario.planner.vocab_size = Some(128_000);
        let quick = Request::new(MethodId::Quick, scenario.clone());
        assert!(quick.run().is_ok());
        let planner = Request::new(MethodId::Planner, scenario);
        let refusal = RunError {
            method: MethodId::Planner,
            reason: Refusal::Knob(PlannerError {
                knob: Knob::OffloadGb,
                problem: KnobProblem::AboveHostRam {
                    max_bytes: Bytes(8_000_000_000),
                },
            }),
        };
        assert_eq!(planner.run(), Err(RequestError::Refused(refusal)));
        assert_eq!(
            refusal.to_string(),
            "method planner cannot estimate this: planner.offload_gb over all GPUs of a machine must be at most 80 % of its host RAM (8.000 GB per GPU)"
        );
        let s = planner.scenario.validate().unwrap();
        assert_eq!(preferred(&s), Some(MethodId::Quick));
    }

    #[test]
    fn a_mode_the_method_does_not_cover_names_the_modes_it_does() {
        let request = Request::new(
            MethodId::Quick,
            ScenarioInput {
                mode: Mode::Full,
                ..ScenarioInput::default()
            },
        );
        assert_eq!(
            request.run().unwrap_err().to_string(),
            "method quick does not estimate full (it applies to: inference)"
        );
    }
}
