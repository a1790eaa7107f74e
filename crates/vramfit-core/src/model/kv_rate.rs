//! How fast one sequence's KV cache grows at a given context, exactly: a
//! compressed-attention layer (DeepSeek-V4) adds one pooled entry every
//! `m` tokens, so the growth from one token to the next is 0 most of the
//! time and a whole entry now and then. The rate is the mean over one
//! period of every layer's pattern, a fraction of bytes per token.

use super::layers::AttentionKind;
use super::ModelSpec;
use serde::Serialize;

/// Bytes per token of context that one sequence's cache grows by, as the
/// reduced fraction `bytes_num / bytes_den`, and per 1,000 tokens.
///
/// # Formula
///
/// ```text
/// P      = lcm of the compression ratios m of the layers (1 without any)
/// ΔE     = Σ_layers cached(S + P) − cached(S)          (elements, exact)
/// rate   = ΔE · b_kv / (8 · P)                          bytes per token
/// per_1k = round(1000 · rate)
/// ```
///
/// `cached` is the per-layer count of [`ModelSpec::kv_cache_bytes`]
/// (module `kv`); `b_kv` the bits of one cached element. Worked example,
/// DeepSeek-V4-Flash at S = 4,096 with a 16-bit cache: P = lcm(4, 128) =
/// 128; the 2 sliding and the window parts are full; 21 layers add 32
/// entries of 512 + 128 and 20 layers one entry of 512 over 128 tokens:
/// ΔE = 21·32·640 + 20·512 = 440,320, rate = 440,320 · 16 / (8 · 128) =
/// 6,880 bytes per token (not the 0 of the next single token).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct KvGrowth {
    pub bytes_num: u64,
    pub bytes_den: u64,
    /// `1000 · bytes_num / bytes_den`, rounded to the nearest byte.
    pub bytes_per_1000_tokens: u64,
}

/// Longest period considered: far above any published ratio (128), low
/// enough that `S + P` stays exact.
const MAX_PERIOD: u64 = 1 << 20;

impl KvGrowth {
    /// A whole number of bytes per token.
    pub fn whole(bytes: u64) -> KvGrowth {
        KvGrowth::new(bytes as u128, 1)
    }

    /// `num / den` bytes per token, reduced (saturated to `u64`).
    fn new(num: u128, den: u128) -> KvGrowth {
        let den = den.max(1);
        let g = gcd(num, den).max(1);
        let (n, d) = (num / g, den / g);
        let per_1000 = (n.saturating_mul(1000).saturating_add(d / 2)) / d;
        KvGrowth {
            bytes_num: crate::units::saturate(n),
            bytes_den: crate::units::saturate(d),
            bytes_per_1000_tokens: crate::units::saturate(per_1000),
        }
    }

    /// Bytes per token rounded to the nearest byte.
    pub fn per_token_rounded(&self) -> u64 {
        let d = self.bytes_den.max(1) as u128;
        crate::units::saturate((self.bytes_num as u128 + d / 2) / d)
    }

    /// Whether the rate is a whole number of bytes per token.
    pub fn is_whole(&self) -> bool {
        self.bytes_den <= 1
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl ModelSpec {
    /// The mean growth of one sequence's cache per token at `context`, over
    /// one period of every compressed layer ([`KvGrowth`]).
    pub fn kv_growth(&self, context: u64, kv_milli_bits: u64) -> KvGrowth {
        let period = self
            .attention
            .iter()
            .filter_map(|k| match k {
                AttentionKind::Compressed { ratio, .. } => Some((*ratio).max(1)),
                _ => None,
            })
            .fold(1u64, |p, m| {
                let l = (p as u128 * m as u128) / gcd(p as u128, m as u128).max(1);
                crate::units::saturate(l).min(MAX_PERIOD)
            });
        let grown = self
            .kv_cached_elements(context.saturating_add(period))
            .saturating_sub(self.kv_cached_elements(context));
        KvGrowth::new(
            grown.saturating_mul(kv_milli_bits as u128),
            8_000 * period as u128,
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::model::parse_config;

    #[test]
    fn deepseek_v4_flash_grows_by_its_pooled_entries_not_zero() {
        let s = parse_config(include_str!(
            "../../data/configs/deepseek-ai__DeepSeek-V4-Flash.json"
        ))
        .unwrap();
        // The next single token adds nothing at 4,096 (a multiple of both
        // ratios): the per-token difference the page showed as 0 B.
        let one = s.kv_cache_bytes(4_097, 1, 16_000) - s.kv_cache_bytes(4_096, 1, 16_000);
        assert_eq!(one, 0);
        let g = s.kv_growth(4_096, 16_000);
        // 21 layers × 32 entries × (512 + 128) + 20 layers × 512, over 128
        // tokens, 2 bytes each.
        let elements = 21 * 32 * 640 + 20 * 512;
        assert_eq!((g.bytes_num, g.bytes_den), (elements * 2 / 128, 1));
        assert_eq!(g.per_token_rounded(), 6_880);
        // Over 128 tokens the cache grows by exactly 128 × the rate.
        let span = s.kv_cache_bytes(4_096 + 128, 1, 16_000) - s.kv_cache_bytes(4_096, 1, 16_000);
        assert_eq!(span, 128 * 6_880);
        // At 4.5 bits a value (q4_0-like), the same 440,320 elements.
        let odd = s.kv_growth(4_096, 4_500);
        assert_eq!(
            odd.bytes_num * 8_000 * 128,
            elements * 4_500 * odd.bytes_den
        );
        assert_eq!(odd.bytes_per_1000_tokens, 1_935_000);
        // Past one entry of the ratio-4 layers only (S = 4,099 → 4,099 + 128
        // still adds 32 entries each): the rate does not depend on where in
        // the period the context falls.
        assert_eq!(s.kv_growth(4_099, 16_000), g);
    }

    #[test]
    fn a_model_without_compression_grows_by_whole_bytes() {
        let s = parse_config(include_str!(
            "../../data/configs/meta-llama__Llama-3.1-8B.json"
        ))
        .unwrap();
        let g = s.kv_growth(4_096, 16_000);
        assert!(g.is_whole());
        assert_eq!(g.per_token_rounded(), 131_072);
        assert_eq!(g.bytes_per_1000_tokens, 131_072_000);
    }
}
