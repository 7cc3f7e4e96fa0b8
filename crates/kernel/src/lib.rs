//! Kernels and stable sets of digraphs.
//!
//! (Implementation in progress: see the workspace issue tracker.)
