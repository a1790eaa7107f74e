//! La lección y sus métodos, en español (el idioma de las semillas).

use crate::lesson::texts::{LessonTexts, MethodLesson};
use vramfit_core::methods::MethodId;

pub static LESSON: LessonTexts = LessonTexts {
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

    double_context: |tokens| format!("Doble de contexto: {tokens} tokens"),
    halve_bits: |bits| format!("Mitad de bits por peso: {bits}"),
    unit_view: |unit| format!("Ver en {}", unit.label()),
    switch_method: |method| format!("Método {}", method.id()),
    matched_budget: |gpu, context, batch| {
        format!("Presupuesto común: GPU de {gpu}, {context} tokens de contexto, {batch} secuencia(s) a la vez.")
    },
    comparison: |difference, pct| format!("Alternativa − actual: {difference} ({pct})"),
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

static LESSON_METHOD: MethodLesson = MethodLesson {
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

static ALLOCATOR: MethodLesson = MethodLesson {
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

static RANGE: MethodLesson = MethodLesson {
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

static PLANNER: MethodLesson = MethodLesson {
    interpretation: "Un presupuesto de planificación por GPU para servir o entrenar un modelo con paralelismo de tensor y de pipeline, réplicas y usuarios, con una velocidad orientativa. El total es el de la GPU más cargada y se compara con la memoria nominal menos un 10 % de reserva. GB decimales.",
    formulas: "total = pesos + adaptadores + caché KV + activaciones + logits + puntuaciones de atención + gradientes + optimizador + pesos maestros + comunicación + búfer de offload + margen (15 %) + contexto del motor (1 GiB) · utilizable = nominal × (1 − 10 %)",
    assumptions: &[
        "Los pesos cuantizados llevan un 5 % de metadatos; los embeddings y la cabeza de salida (U) quedan en BF16.",
        "La caché KV va paginada en bloques de 16 tokens; un prefijo compartido se guarda una vez, las ventanas limitan sus capas y MLA guarda un latente por token.",
        "Los usuarios se reparten entre réplicas; en cada réplica el lote decodifica a la vez y el resto espera en cola.",
        "El entrenamiento es AdamW: 16 bytes por parámetro entrenado, con copia maestra en FP32.",
        "La velocidad es un roofline de ancho de banda y cómputo, de conservador (35 % / 20 %) a favorable (70 % / 45 %).",
    ],
    counterexample: "Un motor que reserva memoria para grafos CUDA o un búfer de prefill mayor que el presupuesto de 2.048 tokens: con la cola llena, «cabe» deja de estar asegurado.",
    references: &[
        ("Semilla 002, «Metodología de memoria v0.3»", "Cada término, los valores por defecto (K = 20, margen 15 %, reserva 10 %, bloques de 16 tokens) y la velocidad como roofline."),
        ("docs/methods/planner.md", "Los símbolos y los ejemplos resueltos: GQA, MLA con TP, residencia, prefijo, bloques."),
        ("Kwon et al., PagedAttention (vLLM)", "Una caché KV en bloques de tamaño fijo, compartida entre secuencias."),
    ],
    checked: &[
        "Unidades: GB decimales por GPU, la reserva aparte del margen.",
        "Los ejemplos de la semilla como pruebas: GQA 8B a 8.192 tokens, MLA con TP 2, 100 usuarios en 8 réplicas.",
        "Que las réplicas, TP y PP repartan el número de GPU.",
    ],
    not_checked: &[
        "Mediciones reales: es una cifra de planificación.",
        "Kernels y fragmentación más allá del margen y la reserva.",
        "La velocidad de un motor real.",
    ],
};

static VLLM: MethodLesson = MethodLesson {
    interpretation: "Lo que el propio vLLM informa cuando arranca `vllm serve`: los pesos tal como se cargan, el pico de su perfilado, la memoria fuera de PyTorch y la caché KV que hace con lo que queda de total × gpu_memory_utilization, en tokens y en solicitudes del contexto completo. El anillo pone las solicitudes del escenario frente a esa memoria pedida. GiB binarios, por GPU.",
    formulas: "pedida = ⌈M × u⌉ · memoria KV = pedida − (pesos + pico + fuera de torch) · bloques = ⌊memoria KV / página⌋ · tokens = bloques × tamaño de bloque · concurrencia = bloques / bloques por solicitud · necesaria = pesos + pico + fuera de torch + B × KV(L)",
    assumptions: &[
        "El total de la GPU es el que informa CUDA (79,19 GiB en una H100 80GB), del catálogo cuando lo tiene.",
        "Los valores de vLLM para la GPU: 8.192 tokens por lote y 1.024 secuencias en GPU de 70 GiB o más (salvo A100), si no 2.048 y 256.",
        "La memoria fuera de torch y los grafos CUDA son constantes medidas en una H100, no derivadas.",
    ],
    counterexample: "Un híbrido con Mamba o atención lineal: vLLM organiza su estado en páginas que este método no deriva, así que rechaza el modelo.",
    references: &[
        ("vLLM `vllm/v1/worker/gpu_worker.py`, `determine_available_memory`", "la memoria pedida menos pesos, pico y memoria fuera de torch es la caché KV."),
        ("vLLM `vllm/v1/core/kv_cache_utils.py`", "Páginas por capa, grupos de caché KV, bloques, tokens, concurrencia y el error de arranque."),
        ("docs/methods/vllm.md", "Cada término, con los 47 registros de arranque con que se contrasta."),
    ],
    checked: &[
        "47 registros reales de arranque de vLLM 0.19 en una H100: pesos dentro del 1 %, memoria KV dentro de 0,21 GiB, tokens KV dentro del 0,34 %.",
        "El error que imprime vLLM cuando una solicitud de --max-model-len no cabe.",
    ],
    not_checked: &["Otras GPU que la H100 para la memoria fuera de torch y los grafos CUDA.", "ROCm, decodificación especulativa, LoRA."],
};

static LLAMACPP: MethodLesson = MethodLesson {
    interpretation: "El archivo GGUF que escribirían las herramientas de llama.cpp para el modelo (un tipo por tensor, exacto al byte), las cachés K y V de su contexto, sus búferes de cómputo y de salida, y cómo -ngl los reparte entre la GPU y la memoria del host. El anillo es la GPU, menos el 1 GiB que llama.cpp deja libre. GiB binarios.",
    formulas: "tamaño = Σ fila(t_i, ne0) × ne1 × ne2 · K = Σ_capas fila(t_k, H_kv × d) × n_ctx · V igual con t_v · salida = 4 × V × ranuras · GPU = pesos + K + V + cómputo de las capas en la GPU",
    assumptions: &[
        "La receta de llama-quantize para el tipo de archivo (Q4_K_M deja attn_v y ffn_down en parte en Q6_K).",
        "n_ctx es el contexto redondeado hacia arriba a 256 celdas; flash attention activada (el automático de llama.cpp).",
        "Con -ngl en automático, el anillo es todas las capas en la GPU, y el panel da el reparto que elegiría llama.cpp.",
    ],
    counterexample: "Un contexto largo con una GPU pequeña y -ngl en automático: llama.cpp arranca igual, con menos capas en la GPU, y la velocidad cae con cada capa que queda en el host.",
    references: &[
        ("llama.cpp `src/llama-quant.cpp`, `llama_tensor_get_type`", "El tipo de cada tensor para un tipo de archivo."),
        ("llama.cpp `src/llama-kv-cache.cpp`, `src/llama-context.cpp`", "Cachés K y V por capa, redondeo del contexto, búfer de salida."),
        ("docs/methods/llamacpp.md", "Cada término, la regla de reparto y lo que es aproximado."),
    ],
    checked: &[
        "La tabla de tamaños de llama.cpp para Llama-3.1-8B en nueve tipos, dentro del 0,11 %, y tres líneas de llama-bench.",
        "La fórmula de la caché KV al byte.",
    ],
    not_checked: &["Los búferes de cómputo: una aproximación del asignador de grafos de ggml.", "Varias GPU, proyectores multimodales."],
};
