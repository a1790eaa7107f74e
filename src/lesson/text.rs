//! Every word of the lesson, in Spanish (the seeds' language, the default)
//! and English, and the way numbers are written in each. Views hold no
//! wording; they ask here with a [`Lang`].

use vramfit_core::methods::MethodId;
use vramfit_core::term::Term;
use vramfit_core::units::{Bytes, DisplayUnit};
use vramfit_core::verdict::FitStatus;

/// The language of the lesson and the notebook.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    Es,
    En,
}

impl Lang {
    /// From a language code (`"es"`, `"en"`, `"es-ES"`, `"en-GB"`). Spanish
    /// for `es` and an empty code; English for `en` and for any language
    /// the lesson is not written in.
    pub fn from_code(code: &str) -> Lang {
        let code = code.trim().to_ascii_lowercase();
        let primary = code.split(['-', '_']).next().unwrap_or_default();
        match primary {
            "es" | "" => Lang::Es,
            _ => Lang::En,
        }
    }

    /// The language code (`"es"`, `"en"`), for `lang` attributes and dates.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Es => "es",
            Lang::En => "en",
        }
    }
}

/// `value` with `decimals` decimals: a decimal comma in Spanish, a point in
/// English. Non-finite values read `—`.
pub fn number(lang: Lang, value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return "—".into();
    }
    let text = format!("{value:.decimals$}");
    let text = if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_string()
    } else {
        text
    };
    match lang {
        Lang::Es => text.replace('.', ","),
        Lang::En => text,
    }
}

/// A number with at most two decimals and no trailing zeros (`"8"`,
/// `"4,16"`), as a person writes a setting.
pub fn short(lang: Lang, value: f64) -> String {
    let text = number(lang, value, 2);
    if text.contains([',', '.']) {
        text.trim_end_matches('0')
            .trim_end_matches([',', '.'])
            .to_string()
    } else {
        text
    }
}

/// Bytes in `unit` with two decimals and the unit label (`"18,78 GB"`).
pub fn bytes(lang: Lang, unit: DisplayUnit, bytes: Bytes) -> String {
    format!("{} {}", number(lang, bytes.in_unit(unit), 2), unit.label())
}

/// A signed difference in `unit` (`"+0,78 GB"`, `"−1,20 GiB"`).
pub fn signed_bytes(lang: Lang, unit: DisplayUnit, difference: i64) -> String {
    let magnitude = number(
        lang,
        difference.unsigned_abs() as f64 / unit.bytes() as f64,
        2,
    );
    let sign = match difference.signum() {
        1 => "+",
        -1 => "−",
        _ => "±",
    };
    format!("{sign}{magnitude} {}", unit.label())
}

/// A percentage with one decimal (`"4,2 %"`, `"4.2%"`), signed if asked.
pub fn percent(lang: Lang, value: f64, signed: bool) -> String {
    let sign = if !signed || value.abs() < 0.05 {
        ""
    } else if value > 0.0 {
        "+"
    } else {
        "−"
    };
    let body = number(lang, if signed { value.abs() } else { value }, 1);
    match lang {
        Lang::Es => format!("{sign}{body} %"),
        Lang::En => format!("{sign}{body}%"),
    }
}

/// Reads a number as a person types it: `18,8`, `18.8`, ` 18 `.
pub fn parse_number(text: &str) -> Option<f64> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{202f}')
        .map(|c| if c == ',' { '.' } else { c })
        .collect();
    let value: f64 = cleaned.parse().ok()?;
    (value.is_finite() && value >= 0.0).then_some(value)
}

/// The ring state in words.
pub fn status_word(lang: Lang, status: FitStatus) -> &'static str {
    match (lang, status) {
        (Lang::Es, FitStatus::Roomy) => "holgada",
        (Lang::Es, FitStatus::WithMargin) => "con margen",
        (Lang::Es, FitStatus::Tight) => "ajustada",
        (Lang::Es, FitStatus::DoesNotFit) => "no cabe",
        (Lang::En, FitStatus::Roomy) => "roomy",
        (Lang::En, FitStatus::WithMargin) => "with margin",
        (Lang::En, FitStatus::Tight) => "tight",
        (Lang::En, FitStatus::DoesNotFit) => "does not fit",
    }
}

/// The fixed wording of the lesson.
pub struct Texts {
    pub title: &'static str,
    pub lead: &'static str,
    pub method_label: &'static str,

    pub contract_title: &'static str,
    pub contract_goal: &'static str,
    pub understand: &'static str,
    pub understand_what: &'static str,
    pub understand_how: &'static str,
    pub implement: &'static str,
    pub implement_what: &'static str,
    pub implement_how: &'static str,
    pub investigate: &'static str,
    pub investigate_what: &'static str,
    pub investigate_how: &'static str,
    pub done: &'static str,
    pub pending: &'static str,

    pub understand_title: &'static str,
    pub assumptions: &'static str,
    pub terms: &'static str,
    pub term: &'static str,
    pub formula: &'static str,
    pub value: &'static str,
    pub counterexample_label: &'static str,
    pub counterexample_hint: &'static str,
    pub counterexample_idea: &'static str,

    pub predict_title: &'static str,
    pub predict_intro: &'static str,
    pub boundary_label: &'static str,
    pub boundary_min_context: &'static str,
    pub boundary_at_limit: &'static str,
    pub boundary_none_fits: &'static str,
    pub prediction_label: &'static str,
    pub prediction_hint: &'static str,
    pub prediction_invalid: &'static str,
    pub reveal: &'static str,
    pub hidden: &'static str,
    pub scenario_invalid: &'static str,
    pub predicted: &'static str,
    pub observed: &'static str,
    pub discrepancy: &'static str,
    pub too_high: &'static str,
    pub too_low: &'static str,
    pub exact: &'static str,
    pub after_reveal: &'static str,
    pub masked_hint: &'static str,

    pub isolate_title: &'static str,
    pub isolate_intro: &'static str,
    pub change: &'static str,
    pub total: &'static str,
    pub delta: &'static str,
    pub changed_terms: &'static str,
    pub baseline: &'static str,
    pub apply: &'static str,
    pub not_estimated: &'static str,
    pub same_bytes: &'static str,
    pub nothing_changes: &'static str,

    pub investigate_title: &'static str,
    pub investigate_intro: &'static str,
    pub kind_methods: &'static str,
    pub kind_formats: &'static str,
    pub current: &'static str,
    pub alternative: &'static str,
    pub utilization: &'static str,
    pub verdict: &'static str,

    pub example_title: &'static str,
    pub example_intro: &'static str,
    pub cli_label: &'static str,
    pub json_label: &'static str,
    pub copy: &'static str,
    pub copied: &'static str,
    pub copy_failed: &'static str,
    pub config_note: &'static str,
    pub json_note: &'static str,

    pub transfer_title: &'static str,
    pub transfer_intro: &'static str,
    pub notes_label: &'static str,
    pub transfer_label: &'static str,
    pub transfer_hint: &'static str,
    pub record: &'static str,
    pub recorded: &'static str,
    pub open_notebook: &'static str,
    pub evidence_title: &'static str,
    pub evidence_intro: &'static str,

    pub interpretation_title: &'static str,
    pub references_title: &'static str,
    pub scope_title: &'static str,
    pub checked: &'static str,
    pub not_checked: &'static str,
    pub scope_note: &'static str,

    pub kit_title: &'static str,
    pub kit_intro: &'static str,
    pub kit_download: &'static str,
    pub kit_failed: &'static str,
}

static ES: Texts = Texts {
    title: "Lección: la memoria de GPU, paso a paso",
    lead: "Desglosa pesos, caché KV y estados de entrenamiento antes de ejecutar.",
    method_label: "Método de la lección",

    contract_title: "Contrato de aprendizaje: comprender → implementar → investigar",
    contract_goal: "Objetivo: explicar el mecanismo, reproducir un ejemplo y poner a prueba un caso que falla. Leer no basta para dominarlo: cada paso se marca al hacerlo, no al leerlo.",
    understand: "Comprender",
    understand_what: "Enuncia las suposiciones, las formas y unidades, y un contraejemplo.",
    understand_how: "Se marca al escribir tu contraejemplo.",
    implement: "Implementar",
    implement_what: "Reproduce un ejemplo numérico e inspecciona los límites.",
    implement_how: "Se marca al revelar un resultado después de predecirlo.",
    investigate: "Investigar",
    investigate_what: "Compara una alternativa con el mismo presupuesto.",
    investigate_how: "Se marca al comparar dos métodos o dos formatos.",
    done: "hecho",
    pending: "pendiente",

    understand_title: "Comprender: suposiciones, formas y unidades",
    assumptions: "Suposiciones",
    terms: "Términos del escenario actual",
    term: "Término",
    formula: "Fórmula",
    value: "Valor",
    counterexample_label: "Tu contraejemplo",
    counterexample_hint: "Un caso que viole una suposición: ¿qué conclusión deja de seguirse?",
    counterexample_idea: "Una idea para empezar:",

    predict_title: "Antes de ejecutar: predice un caso límite",
    predict_intro: "Prepara un caso límite (o usa el escenario actual), escribe tu predicción del total con su unidad y solo entonces revela el resultado.",
    boundary_label: "Casos límite en un clic",
    boundary_min_context: "Contexto de 1 token (la caché KV casi desaparece)",
    boundary_at_limit: "El contexto más largo que cabe",
    boundary_none_fits: "Ningún contexto cabe en esta GPU",
    prediction_label: "Tu predicción del total",
    prediction_hint: "Un número y su unidad: GB = 10⁹ bytes, GiB = 2³⁰ bytes.",
    prediction_invalid: "Escribe un número mayor o igual que 0 (por ejemplo 18,8).",
    reveal: "Revelar el resultado",
    hidden: "El resultado está oculto hasta que escribas una predicción y lo reveles.",
    scenario_invalid: "El escenario tiene un problema: corrígelo en la calculadora para poder comparar.",
    predicted: "Tu predicción",
    observed: "Resultado del método",
    discrepancy: "Discrepancia",
    too_high: "por encima",
    too_low: "por debajo",
    exact: "exacta",
    after_reveal: "¿De dónde viene la diferencia? Busca el término que estimaste mal, o la unidad.",
    masked_hint: "Las cifras del escenario aparecen cuando reveles tu predicción (arriba); hasta entonces se muestran como «?».",

    isolate_title: "Pista: aísla la suposición",
    isolate_intro: "Mantén fija la entrada base, cambia un solo parámetro o límite y compara a la vez el número y las unidades. Un ejemplo que pasa solo verifica ese caso.",
    change: "Un solo cambio",
    total: "Total",
    delta: "Δ frente a la base",
    changed_terms: "Términos que cambian",
    baseline: "Base: el escenario actual",
    apply: "Aplicar",
    not_estimated: "este método no lo estima",
    same_bytes: "los mismos bytes: solo cambia el número",
    nothing_changes: "ninguno",

    investigate_title: "Investiga: una alternativa con el mismo presupuesto",
    investigate_intro: "Compara dos métodos o dos formatos de pesos con la misma GPU y el mismo contexto.",
    kind_methods: "Dos métodos",
    kind_formats: "Dos formatos de pesos",
    current: "Actual",
    alternative: "Alternativa",
    utilization: "Uso de la GPU",
    verdict: "Veredicto",

    example_title: "Ejemplo mínimo ejecutable",
    example_intro: "El mismo cálculo como orden de vramfit (la herramienta de línea de órdenes de este proyecto) y como entradas JSON, las mismas que guarda la exportación.",
    cli_label: "Línea de órdenes",
    json_label: "Entradas (JSON)",
    copy: "Copiar",
    copied: "Copiado",
    copy_failed: "No se pudo copiar: selecciona el texto y cópialo a mano.",
    config_note: "Guarda el config.json pegado con ese nombre en la carpeta donde ejecutes la orden.",
    json_note: "Añade --json a la orden para obtener el documento vramfit/1 completo, idéntico al de «Exportar JSON».",

    transfer_title: "Prueba y transferencia",
    transfer_intro: "Registra en el cuaderno la entrada, la versión del código, el resultado esperado y el observado. Después construye un contraejemplo que viole la suposición de arriba y explica por qué la conclusión original ya no se sigue.",
    notes_label: "Notas",
    transfer_label: "Prueba de transferencia",
    transfer_hint: "Aplica lo aprendido a otro modelo, GPU o formato: ¿se mantiene la conclusión?",
    record: "Registrar en el cuaderno",
    recorded: "Registrado en el cuaderno.",
    open_notebook: "Abrir el cuaderno: exportar, importar, borrar →",
    evidence_title: "Predice, prueba y guarda evidencias",
    evidence_intro: "Antes de revelar una respuesta, predice un resultado. Después del ejercicio, anota la discrepancia y una prueba de transferencia. Se guarda en este navegador, en cualquier idioma.",

    interpretation_title: "Cómo interpretar los resultados",
    references_title: "Referencias del método",
    scope_title: "Alcance de la revisión",
    checked: "Revisado",
    not_checked: "Sin revisar",
    scope_note: "El alcance de la revisión matemática se registra por lección. No establece una reproducción empírica: anota en el cuaderno cualquier error que sospeches.",

    kit_title: "Kit de referencia",
    kit_intro: "Todos los ejemplos resueltos, con sus entradas y las salidas esperadas de cada método, en un archivo JSON. Compruébalo con la herramienta de línea de órdenes:",
    kit_download: "Descargar el kit completo (.json)",
    kit_failed: "No se pudo descargar el kit.",
};

static EN: Texts = Texts {
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
};

/// The lesson's wording in `lang`.
pub fn texts(lang: Lang) -> &'static Texts {
    match lang {
        Lang::Es => &ES,
        Lang::En => &EN,
    }
}

/// Labels of the single changes of the "isolate" hint.
pub fn double_context(lang: Lang, tokens: u64) -> String {
    match lang {
        Lang::Es => format!("Doble de contexto: {tokens} tokens"),
        Lang::En => format!("Double the context: {tokens} tokens"),
    }
}

pub fn halve_bits(lang: Lang, bits: f64) -> String {
    let bits = short(lang, bits);
    match lang {
        Lang::Es => format!("Mitad de bits por peso: {bits}"),
        Lang::En => format!("Half the bits per weight: {bits}"),
    }
}

pub fn unit_view(lang: Lang, unit: DisplayUnit) -> String {
    match lang {
        Lang::Es => format!("Ver en {}", unit.label()),
        Lang::En => format!("View in {}", unit.label()),
    }
}

pub fn switch_method(lang: Lang, method: MethodId) -> String {
    match lang {
        Lang::Es => format!("Método {}", method.id()),
        Lang::En => format!("Method {}", method.id()),
    }
}

/// The budget both sides of a comparison share.
pub fn matched_budget(lang: Lang, gpu: &str, context: u64, batch: u64) -> String {
    match lang {
        Lang::Es => format!(
            "Presupuesto común: GPU de {gpu}, {context} tokens de contexto, {batch} secuencia(s) a la vez."
        ),
        Lang::En => format!(
            "Shared budget: a {gpu} GPU, {context} tokens of context, {batch} sequence(s) at once."
        ),
    }
}

/// "B − A" in words.
pub fn comparison(lang: Lang, difference: &str, pct: &str) -> String {
    match lang {
        Lang::Es => format!("Alternativa − actual: {difference} ({pct})"),
        Lang::En => format!("Alternative − current: {difference} ({pct})"),
    }
}

/// A boundary case that sets the GPU to exactly the estimated total.
pub fn boundary_exact_gpu(lang: Lang, amount: &str) -> String {
    match lang {
        Lang::Es => format!("GPU de exactamente {amount} (100 %)"),
        Lang::En => format!("A GPU of exactly {amount} (100%)"),
    }
}

/// A term's name: the app's own, in the lesson's language.
pub fn term_name(lang: Lang, term: Term) -> &'static str {
    let app = crate::i18n::Lang::from_tag(lang.code()).unwrap_or_default();
    (app.t().term)(term)
}

/// What a method's lesson says: how to read it, its formulas, its
/// sources, and what its review covered.
pub struct MethodLesson {
    /// One paragraph: what the estimate is and is not.
    pub interpretation: &'static str,
    /// The formulas, as the seed states them.
    pub formulas: &'static str,
    pub assumptions: &'static [&'static str],
    /// A counterexample to start from.
    pub counterexample: &'static str,
    /// (source, what it gives).
    pub references: &'static [(&'static str, &'static str)],
    pub checked: &'static [&'static str],
    pub not_checked: &'static [&'static str],
}

/// The lesson of `method` in `lang`.
pub fn method_lesson(lang: Lang, method: MethodId) -> &'static MethodLesson {
    match (lang, method.id()) {
        (Lang::Es, "quick") => &QUICK_ES,
        (Lang::En, "quick") => &QUICK_EN,
        (Lang::Es, "lesson") => &LESSON_ES,
        (Lang::En, "lesson") => &LESSON_EN,
        (Lang::Es, "allocator") => &ALLOCATOR_ES,
        (Lang::En, "allocator") => &ALLOCATOR_EN,
        (Lang::Es, "range") => &RANGE_ES,
        (Lang::En, "range") => &RANGE_EN,
        (Lang::Es, _) => &OTHER_ES,
        (Lang::En, _) => &OTHER_EN,
    }
}

static QUICK_ES: MethodLesson = MethodLesson {
    interpretation: "Estimación de inferencia en un dispositivo: pesos con almacenamiento ideal, caché KV densa de atención completa y una sobrecarga en porcentaje para activaciones, contexto CUDA y búferes. GB decimales (10⁹ bytes). No modela metadatos de cuantización, ventanas deslizantes, atención latente, entrenamiento ni picos medidos.",
    formulas: "pesos = P × b_w / 8 · KV por token = 2 × L × H_kv × d_head × b_kv · caché KV = KV por token × S × B · sobrecarga = (pesos + caché) × o / 100 · total = pesos + caché + sobrecarga",
    assumptions: &[
        "Cada parámetro ocupa exactamente b_w bits: sin escalas ni ceros de cuantización.",
        "Cada capa guarda una clave y un valor por cabeza KV y por token (atención completa).",
        "La caché crece lineal con el contexto S y con las secuencias B.",
        "La sobrecarga es un porcentaje fijo (10 % por defecto; la semilla da 10–20 %).",
        "Cabe si el total no supera la memoria nominal de la GPU.",
    ],
    counterexample: "Un modelo con capas de ventana deslizante (Gemma 2): por encima de la ventana su caché deja de crecer, así que doblar el contexto ya no dobla la caché KV.",
    references: &[
        ("Semilla 004, «Antes de descargar un modelo o alquilar una GPU»", "Pesos, caché KV y sobrecarga; ejemplo resuelto 8B FP16 a 8.192 tokens: unos 18,8 GB en una GPU de 24 GB."),
        ("docs/methodology.md, sección quick", "Cada término con su fórmula, símbolos, valores por defecto y los tres ejemplos como pruebas."),
        ("config.json del modelo", "num_hidden_layers, num_key_value_heads y la dimensión de cabeza dan la cifra precisa de la caché."),
    ],
    checked: &[
        "Unidades: bytes enteros; GB = 10⁹ y GiB = 2³⁰, siempre con su etiqueta.",
        "Ejemplos numéricos de la semilla 004: 18,78 GB (8B FP16), 5,58 GB (8B 4 bits), 39,68 GB (70B 4 bits).",
        "La caché se dobla al doblar el contexto o el lote.",
    ],
    not_checked: &[
        "Cómo cuenta la memoria cada proveedor o panel de la nube.",
        "La asignación real en la GPU: necesita una medición externa.",
        "El efecto de la cuantización en la calidad.",
    ],
};

static QUICK_EN: MethodLesson = MethodLesson {
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

static LESSON_ES: MethodLesson = MethodLesson {
    interpretation: "Estimación de un dispositivo. La inferencia usa almacenamiento ideal de pesos y caché KV densa; metadatos de cuantización, kernels, activaciones y asignadores añaden coste. El entrenamiento completo usa 18 bytes/parámetro como referencia AdamW de precisión mixta, más tus reservas. No modela todos los frameworks, LoRA, particionado, offload ni picos medidos.",
    formulas: "GiB = 2³⁰ bytes. Estados = parámetros × 18 bytes. KV = 2 × capas × cabezas KV × dimensión × secuencia × lote × bytes. El margen multiplica el subtotal con reservas.",
    assumptions: &[
        "Los 18 bytes de entrenamiento son 2 de pesos de trabajo + 4 de pesos maestros + 4 de gradientes + 8 de momentos de Adam: una disposición de tipos, no una constante universal ni un pico medido.",
        "Al entrenar no se suman los pesos otra vez (están en los 18 bytes) ni hay caché KV.",
        "Las dos reservas (runtime y activaciones, en GiB) cuentan en los dos modos.",
        "El margen multiplica el subtotal que ya incluye las reservas.",
        "La capacidad se compara en bytes: 24 GiB = 25.769.803.776 bytes.",
    ],
    counterexample: "Entrenar con un optimizador de 8 bits o con LoRA: los 18 bytes por parámetro dejan de valer, así que la conclusión «no cabe al entrenar» ya no se sigue.",
    references: &[
        ("Semilla 000, «Estimador de memoria GPU»", "estimateVRAM({mode:'inference', params:7, …, capacity:24}): components.cache = 0,5 GiB."),
        ("docs/methodology.md, sección lesson", "El ejemplo byte a byte: 24.126.220.134 bytes (22,47 GiB), cabe en 24 GiB al 93,6 %."),
        ("Mezcla de precisión AdamW", "2 + 4 + 4 + 8 = 18 bytes por parámetro entrenable."),
    ],
    checked: &[
        "Unidades de conteo: GiB = 2³⁰ bytes frente a GB = 10⁹.",
        "El ejemplo numérico de la semilla: caché KV de 536.870.912 bytes = 0,5 GiB.",
        "Su contraparte de entrenamiento: 152.308.818.586 bytes (141,85 GiB).",
        "Que el entrenamiento no cuente los pesos dos veces.",
    ],
    not_checked: &[
        "La contabilidad del proveedor.",
        "La asignación real en la GPU: necesita medición externa.",
        "Que tu framework use esta disposición de 18 bytes.",
    ],
};

static LESSON_EN: MethodLesson = MethodLesson {
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

static ALLOCATOR_ES: MethodLesson = MethodLesson {
    interpretation: "Predice el pico del asignador de PyTorch (torch.cuda.max_memory_allocated()) en un paso de un modelo denso real ejecutado con transformers: inferencia con caché, ajuste completo o LoRA. La sobrecarga de 0,75 GB (contexto CUDA) queda fuera del total y solo se suma para decidir si cabe en el 97 % de la GPU.",
    formulas: "total = weights + kv_cache + gradients + optimizer + max(activations + autocast_cache, step_workspace) · cabe ⇔ total + overhead ≤ 97 % × capacidad nominal",
    assumptions: &[
        "Modelos densos de las familias llama, mistral, qwen2, qwen3, gemma y gemma2; nada de expertos, MLA ni checkpoints cuantizados.",
        "Cada término sale de los tensores que el código mantiene vivos en el pico, no de un ajuste a las mediciones.",
        "amp = pesos fp32 con autocast bf16; pure = pesos entrenados en su dtype.",
        "Nadie más usa la GPU; 0,75 GB fuera del asignador.",
    ],
    counterexample: "Un modelo de mezcla de expertos o uno con atención latente (MLA): sus tensores vivos son otros, así que el método queda fuera de alcance y su cifra no vale.",
    references: &[
        ("Semilla 003, vramcalc 0.1.0", "vramcalc meta-llama/Llama-3.1-8B --train --lora 16 --precision pure --seq 4096 --gpu \"RTX 3090\": no cabe; un solo cambio (seq_len=512) cabe."),
        ("docs/allocator-derivation.md", "Cada término derivado del código de torch, transformers y peft, con citas."),
        ("Mediciones de la semilla 003", "11 filas de Llama-3.2-1B en una RTX A6000."),
    ],
    checked: &[
        "Unidades: bytes enteros mostrados en GB decimales, como la semilla.",
        "Las 11 mediciones de Llama-3.2-1B de la semilla, todas dentro de ±2 %.",
        "Los términos del ejemplo de línea de órdenes de la semilla: pesos 16,12 GB, gradientes 0,05, optimizador 0,11, búfer 0,05.",
    ],
    not_checked: &[
        "Otros modelos, tarjetas y versiones de drivers: la sobrecarga puede variar unos cientos de MB.",
        "La contabilidad del proveedor y la memoria fuera de PyTorch.",
        "Las conversiones extra de HF Trainer o Accelerate.",
    ],
};

static ALLOCATOR_EN: MethodLesson = MethodLesson {
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

static RANGE_ES: MethodLesson = MethodLesson {
    interpretation: "Una estimación baja y una alta por GPU, para servir o ajustar un modelo real, en GB decimales. El total mostrado es el extremo alto (el conservador). Cabe holgado si el alto no pasa del 90 % de una GPU; justo si el bajo cabe.",
    formulas: "servir: bajo = pesos + caché KV + 1 GB; alto = 1,2 × pesos + caché KV + 1 GB · ajustar: bajo = estados + activaciones + 1 GB; alto = 1,2 × (estados + activaciones) + 1 GB",
    assumptions: &[
        "La caché sigue las capas reales del modelo: ventanas deslizantes, latentes y lineales.",
        "1 GB de runtime por GPU; el 20 % cubre activaciones, búferes y fragmentación (regla de EleutherAI).",
        "Pesos y caché se reparten a partes iguales entre hasta 8 GPU de un servidor.",
        "Ajuste completo a 16 bytes por parámetro; LoRA y QLoRA con adaptadores de rango 16.",
    ],
    counterexample: "Un motor que reserva el 92 % de la GPU por adelantado (vLLM): la memoria visible al modelo no es la nominal, así que «cabe holgado» puede no seguirse.",
    references: &[
        ("Semilla 001, «Calculator voor VRAM en modelgrootte»", "Fórmulas de pesos, caché KV, rangos y el criterio del 90 %."),
        ("EleutherAI, Transformer Math 101", "≤ 20 % de sobrecarga en inferencia; memoria de AdamW."),
        ("Rajbhandari et al., ZeRO", "16 bytes por parámetro para Adam con precisión mixta."),
    ],
    checked: &["Unidades: GB decimales por GPU.", "Los ejemplos documentados del método en docs/methods/range.md."],
    not_checked: &["La contabilidad del proveedor.", "La asignación real en la GPU."],
};

static RANGE_EN: MethodLesson = MethodLesson {
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

static OTHER_ES: MethodLesson = MethodLesson {
    interpretation: "Este método reproduce el documento del que procede; consulta docs/methodology.md para sus fórmulas y ejemplos.",
    formulas: "Ver docs/methodology.md.",
    assumptions: &["Las del documento de origen del método."],
    counterexample: "Busca un caso fuera de su alcance declarado y comprueba si la cifra sigue teniendo sentido.",
    references: &[("docs/methodology.md", "Fórmulas, símbolos y ejemplos de cada método.")],
    checked: &["Unidades y ejemplos numéricos documentados."],
    not_checked: &["La contabilidad del proveedor.", "La asignación real en la GPU."],
};

static OTHER_EN: MethodLesson = MethodLesson {
    interpretation: "This method reproduces the document it comes from; see docs/methodology.md for its formulas and examples.",
    formulas: "See docs/methodology.md.",
    assumptions: &["Those of the method's source document."],
    counterexample: "Look for a case outside its declared scope and check whether the figure still makes sense.",
    references: &[("docs/methodology.md", "Formulas, symbols and examples of every method.")],
    checked: &["Units and documented numerical examples."],
    not_checked: &["Provider accounting.", "Actual GPU allocation."],
};
