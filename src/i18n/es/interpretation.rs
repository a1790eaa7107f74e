//! "How to read the results": each method's summary, assumptions,
//! units and what it leaves out.

use crate::i18n::Interpretation;
use vramfit_core::methods::MethodId;

pub(super) fn interpretation(method: MethodId) -> Interpretation {
    match method {
        MethodId::Quick => Interpretation {
            summary: "Memoria para servir el modelo en una GPU: pesos + caché KV + un porcentaje de sobrecarga (según la calculadora «Antes de descargar un modelo o alquilar una GPU»).",
            assumptions: &[
                "Pesos = parámetros × bits por peso / 8: almacenamiento ideal, sin metadatos de cuantización salvo los que incluye el formato elegido.",
                "Caché KV densa: 2 × capas × cabezas KV × dimensión × contexto × secuencias × bytes; todas las capas se tratan como atención completa.",
                "La sobrecarga es un porcentaje fijo de pesos + KV (10–20 % es razonable): activaciones, contexto CUDA y búferes.",
                "Cabe cuando el total no supera la memoria nominal de la GPU.",
            ],
            units: "GB decimales (10⁹ bytes), como se anuncian las GPU. El JSON exportado lleva los bytes exactos.",
            leaves_out: &[
                "Entrenamiento (usa lesson o allocator).",
                "Ventanas deslizantes y atención latente: la caché se cuenta completa.",
                "Kernels, asignador y picos medidos; varias GPU.",
            ],
        },
        MethodId::Lesson => Interpretation {
            summary: "Estimación de un dispositivo según la lección del estimador de memoria GPU: pesos y caché KV, o 18 bytes por parámetro al entrenar, más tus reservas y un margen.",
            assumptions: &[
                "La inferencia usa almacenamiento ideal de pesos y caché KV densa.",
                "El entrenamiento completo usa 18 bytes/parámetro: 2 de pesos de trabajo + 4 de pesos maestros + 4 de gradientes + 8 de momentos de Adam (AdamW de precisión mixta), sin caché KV.",
                "Las reservas de runtime y de activaciones cuentan en ambos modos; el margen multiplica el subtotal con reservas.",
            ],
            units: "GiB = 2³⁰ bytes. Estados = parámetros × 18 bytes. KV = 2 × capas × cabezas KV × dimensión × secuencia × lote × bytes.",
            leaves_out: &[
                "Metadatos de cuantización, kernels, activaciones y asignadores reales: las reservas los aproximan.",
                "LoRA, particionado, offload y picos medidos.",
                "Los 18 bytes son una disposición de tipos, no una constante de todos los frameworks.",
            ],
        },
        MethodId::Allocator => Interpretation {
            summary: "El pico de PyTorch (torch.cuda.max_memory_allocated) en un paso de un modelo denso con transformers, derivado de los tensores vivos (vramcalc 0.1.0).",
            assumptions: &[
                "Total = pesos + caché KV + gradientes + optimizador + máx(activaciones + copias de autocast, búfer del paso).",
                "Cabe si total + 0,75 GB de sobrecarga ≤ 97 % de la memoria nominal.",
                "Paso estable: los estados del optimizador ya existen; LoRA sobre q/k/v/o_proj.",
            ],
            units: "Bytes exactos; se muestran en GB (10⁹) o GiB (2³⁰) según el interruptor.",
            leaves_out: &[
                "Mezcla de expertos, atención latente, capas lineales y checkpoints cuantizados.",
                "Fragmentación del asignador (memory_reserved) y lo que no pasa por PyTorch, salvo la sobrecarga fija.",
                "Otros frameworks de servicio (vLLM, llama.cpp).",
            ],
        },
        MethodId::Range => Interpretation {
            summary: "Una estimación baja y otra alta por GPU para servir o ajustar un modelo real (según la calculadora de VRAM y tamaño de modelo).",
            assumptions: &[
                "Servir: baja = pesos/n + caché KV/n + 1 GB; alta = 1,2 × pesos/n + caché KV/n + 1 GB (el 20 % cubre activaciones, búferes y fragmentación, regla de EleutherAI).",
                "Los formatos de 8 y 4 bits mantienen embeddings y cabeza de salida a 16 bits; la caché cuenta cada capa según su tipo (completa, ventana deslizante, MLA, lineal).",
                "Ajuste: 16 bytes/parámetro (completo) o adaptadores LoRA/QLoRA de rango r a 16 bytes, activaciones con gradient checkpointing completo y logits FP32.",
                "Pesos y caché se reparten por igual entre hasta 8 GPU de un servidor; el runtime cuenta en cada GPU.",
            ],
            units: "GB decimales (10⁹ bytes), para la GPU más cargada. Veredicto de la fuente: holgado si la alta usa ≤ 90 % de la memoria; justo si la baja cabe.",
            leaves_out: &[
                "Más de 8 GPU o varias máquinas.",
                "Velocidad y colas de usuarios.",
                "Picos medidos y el comportamiento de cada motor.",
            ],
        },
        MethodId::Planner => Interpretation {
            summary: "Un presupuesto de planificación por GPU (según la metodología de memoria v0.3) para servir o entrenar con paralelismo tensorial y de tubería, réplicas y secuencias simultáneas.",
            assumptions: &[
                "Total = pesos + adaptadores + caché KV + activaciones + logits + matriz de atención + gradientes + optimizador + pesos maestros + comunicación + staging de offload, más un margen (15 %) y el contexto del motor (1 GiB por GPU).",
                "Utilizable = memoria nominal × (1 − reserva del 10 %).",
                "Caché KV paginada en bloques de 16 tokens, con prefijo compartido y ventanas; metadatos de cuantización del 5 %.",
                "La velocidad es un roofline de ancho de banda y cómputo, de conservador (35 % / 20 %) a favorable (70 % / 45 %).",
            ],
            units: "GB decimales (10⁹ bytes) para la GPU más cargada; velocidad en tokens/s por usuario y segundos de prefill.",
            leaves_out: &[
                "Velocidad al entrenar, con MoE, MLA, ventanas deslizantes, TP/PP > 1 u offload.",
                "Mediciones reales: es una cifra para planificar.",
                "Kernels y fragmentación más allá del margen y la reserva.",
            ],
        },
        MethodId::Vllm => crate::i18n::engine_texts(crate::i18n::Lang::Es)
            .map_or(crate::i18n::Interpretation::NOT_LOADED, |t| t.vllm_interpretation),
        MethodId::Llamacpp => crate::i18n::engine_texts(crate::i18n::Lang::Es)
            .map_or(crate::i18n::Interpretation::NOT_LOADED, |t| t.llamacpp_interpretation),
    }
}
