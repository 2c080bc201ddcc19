//! The win/draw/loss estimate of `info` lines: what a score is worth in games, per variant.
//!
//! A win is as likely as a decisive result would be, on a logistic of the score, at a score
//! `draw_margin` lower (and a loss likewise at `draw_margin` higher); the draws are what is left.
//! The scale and the margin are fitted by maximum likelihood to the results of recorded games
//! against the scores the engine reported in them (docs/strength.md, "The WDL estimate").

use crate::core::Variant;

use super::alphabeta::MATE_BOUND;
use super::chance::{Units, LOGISTIC_SCALE};

/// The model's two numbers.
#[derive(Clone, Copy, Debug)]
pub struct WdlModel {
    /// The logistic of a decisive result's odds (its scale in centipawns per factor of 10).
    decisive: Units,
    /// The draw band, in centipawns.
    draw_margin: f64,
}

impl WdlModel {
    /// The model of `variant`. Jieqi's is fitted to 400 games at 10+0.1 against PikaJieQi and
    /// Maniac's to 200 of self-play at 10+0.1; Xiangqi's (361 cp, 150 cp) is not fitted to games.
    pub fn for_variant(variant: Variant) -> WdlModel {
        let (scale, draw_margin) = match variant {
            Variant::Jieqi => (1600.0, 400.0),
            Variant::Maniac => (1700.0, 50.0),
            Variant::Xiangqi => (LOGISTIC_SCALE, 150.0),
        };
        WdlModel {
            decisive: Units::new(scale),
            draw_margin,
        }
    }

    /// Win, draw and loss per mille for the side whose score is `s`; mates are certain.
    pub fn wdl(&self, s: i32) -> (u32, u32, u32) {
        if s > MATE_BOUND {
            return (1000, 0, 0);
        }
        if s < -MATE_BOUND {
            return (0, 0, 1000);
        }
        let f = |x: f64| self.decisive.logistic(x);
        let w = (f(s as f64 - self.draw_margin) * 1000.0).round() as u32;
        let l = (f(-(s as f64) - self.draw_margin) * 1000.0).round() as u32;
        let w = w.min(1000);
        let l = l.min(1000 - w);
        (w, 1000 - w - l, l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn estimates_sum_to_a_thousand_are_symmetric_and_rise_with_the_score() {
        for v in Variant::ALL {
            let m = WdlModel::for_variant(v);
            let mut last_points = 0.0;
            for s in (-3000..=3000).step_by(50) {
                let (w, d, l) = m.wdl(s);
                assert_eq!(w + d + l, 1000, "{v:?} at {s}");
                let (w2, d2, l2) = m.wdl(-s);
                assert_eq!((w, d, l), (l2, d2, w2), "{v:?}: {s} and {} mirror", -s);
                let points = w as f64 + d as f64 / 2.0;
                assert!(points >= last_points, "{v:?}: expected points fall at {s}");
                last_points = points;
            }
            assert_eq!(m.wdl(MATE - 3), (1000, 0, 0));
            assert_eq!(m.wdl(-MATE + 4), (0, 0, 1000));
        }
    }

    #[test]
    fn jieqi_and_maniac_scores_say_what_their_games_did() {
        // The fits' landmarks (docs/strength.md): an even score is a 36% win and a 28% draw in
        // Jieqi, hardly ever a draw in Maniac; +600 takes about 69% of the points in both, where
        // Xiangqi's model gives it 97%.
        let j = WdlModel::for_variant(Variant::Jieqi);
        assert_eq!(j.wdl(0), (360, 280, 360));
        let m = WdlModel::for_variant(Variant::Maniac);
        let (w, d, _) = m.wdl(0);
        assert!(w > 470 && d < 50, "{:?}", m.wdl(0));
        let points = |(w, d, _): (u32, u32, u32)| (2 * w + d) as f64 / 2000.0;
        for model in [j, m] {
            let p = points(model.wdl(600));
            assert!((0.67..0.71).contains(&p), "{model:?} at +600: {p}");
        }
        let x = WdlModel::for_variant(Variant::Xiangqi);
        assert!(points(x.wdl(600)) > 0.95);
    }
}
