//! Retrograde analysis of game graphs: win / lose / draw, depth and optimal moves.
//!
//! (Implementation in progress: see the workspace issue tracker.)
