//! The native module `gamegraph._native` of the Python package `gamegraph`.
//!
//! Every solver of the workspace, called from Python with lists or NumPy arrays in and
//! NumPy arrays out. `python/gamegraph/__init__.py` re-exports what is defined here; the
//! doc comments of the Python-facing items are their Python docstrings (with examples that
//! run as doctests), and `python/gamegraph/_native.pyi` gives their types.
//!
//! Vertex ids are 1-based on the Python side, as in the graph files and the CLI. Solves
//! release the GIL and run on a rayon pool built for the call (`threads=`). Bad input
//! raises `ValueError` with the CLI's message (`FILE:LINE:COL: message` for a graph file),
//! a time or work limit `TimeoutError`; the long calls stop on Ctrl-C (`interrupt`).

mod arrays;
mod board;
mod error;
mod explore;
mod games;
mod graph;
mod grundy;
mod interrupt;
mod kernel;
mod keyed;
mod memory;
mod octal;
mod outcome;
mod page;
mod pool;
mod registry;
mod retro;
mod solved;
mod tab;
mod tiers;
mod values;
mod verify;
mod view;

use pyo3::prelude::*;

/// Exact solvers for impartial games (the native part of the `gamegraph` package).
#[pymodule]
#[pyo3(name = "_native")]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<graph::PyGraph>()?;
    m.add_function(wrap_pyfunction!(graph::read_graph, m)?)?;
    m.add_function(wrap_pyfunction!(graph::write_graph, m)?)?;
    m.add_class::<retro::PyRetro>()?;
    m.add_function(wrap_pyfunction!(retro::retro, m)?)?;
    m.add_class::<kernel::KernelIter>()?;
    m.add_function(wrap_pyfunction!(kernel::kernel, m)?)?;
    m.add_function(wrap_pyfunction!(kernel::kernel_cnf, m)?)?;
    m.add_function(wrap_pyfunction!(kernel::count_kernels, m)?)?;
    m.add_function(wrap_pyfunction!(kernel::kernels, m)?)?;
    m.add_function(wrap_pyfunction!(kernel::alpha, m)?)?;
    m.add_function(wrap_pyfunction!(kernel::beta, m)?)?;
    m.add_class::<grundy::Infinite>()?;
    m.add_class::<grundy::TokenMove>()?;
    m.add_class::<grundy::HeapMove>()?;
    m.add_class::<grundy::GrundyValues>()?;
    m.add_function(wrap_pyfunction!(grundy::grundy, m)?)?;
    m.add_function(wrap_pyfunction!(grundy::play_sum, m)?)?;
    m.add_function(wrap_pyfunction!(grundy::nim, m)?)?;
    m.add_class::<octal::Sequence>()?;
    m.add_function(wrap_pyfunction!(octal::octal, m)?)?;
    m.add_function(wrap_pyfunction!(octal::subtraction, m)?)?;
    m.add_class::<tab::TabBoard>()?;
    m.add_class::<tab::TabPeriod>()?;
    m.add_function(wrap_pyfunction!(tab::tab, m)?)?;
    m.add_class::<verify::Verdict>()?;
    m.add_function(wrap_pyfunction!(verify::verify_retro, m)?)?;
    m.add_function(wrap_pyfunction!(verify::verify_grundy, m)?)?;
    m.add_function(wrap_pyfunction!(verify::verify_kernel, m)?)?;
    m.add_function(wrap_pyfunction!(verify::verify_kernel_none, m)?)?;
    m.add_function(wrap_pyfunction!(verify::verify_octal, m)?)?;
    m.add_function(wrap_pyfunction!(verify::verify_subtraction, m)?)?;
    m.add_class::<solved::PySolvedGame>()?;
    m.add_class::<board::PyBoard>()?;
    m.add_function(wrap_pyfunction!(page::_page_files, m)?)?;
    m.add_function(wrap_pyfunction!(explore::explore, m)?)?;
    m.add_function(wrap_pyfunction!(games::tic_tac_toe, m)?)?;
    m.add_function(wrap_pyfunction!(games::connect_four, m)?)?;
    m.add_function(wrap_pyfunction!(games::kayles, m)?)?;
    m.add_function(wrap_pyfunction!(games::dawsons_kayles, m)?)?;
    m.add_function(wrap_pyfunction!(games::octal_rows, m)?)?;
    m.add_function(wrap_pyfunction!(games::chase, m)?)?;
    m.add_function(wrap_pyfunction!(games::tab_board, m)?)?;
    m.add_function(wrap_pyfunction!(games::quixo, m)?)?;
    m.add_function(wrap_pyfunction!(registry::named, m)?)?;
    m.add_function(wrap_pyfunction!(registry::registry, m)?)?;
    m.add_class::<values::PyValuesFile>()?;
    m.add_function(wrap_pyfunction!(games::open_values, m)?)?;
    m.add_class::<keyed::PyExploredValues>()?;
    m.add_function(wrap_pyfunction!(keyed::open_values, m)?)?;
    m.add_class::<tiers::PyTierSummary>()?;
    m.add_class::<tiers::PyTierValues>()?;
    m.add_function(wrap_pyfunction!(tiers::solve_tiers, m)?)?;
    m.add_function(wrap_pyfunction!(tiers::open_tiers, m)?)?;
    Ok(())
}
