//! The tab board game ("Cờ bảng"): exact min-max answers for boards of any height.
//!
//! (Implementation in progress: see the workspace issue tracker.)
