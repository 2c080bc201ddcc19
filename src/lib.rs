//! jieqi: an engine for Jieqi (face-down Chinese chess), Maniac and Xiangqi.
//!
//! Layers, innermost first: [`core`] (rules, no I/O).

#![forbid(unsafe_code)]

pub mod belief;
pub mod core;
pub mod protocol;
pub mod referee;
pub mod render;
pub mod search;
