//! The page's files, embedded as the `gamegraph` binary embeds them, for `gg.serve()`.

use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Each file's path, content type and bytes.
const FILES: &[(&str, &str, &[u8])] = &[
    ("/", "text/html; charset=utf-8", include_bytes!("../../web/assets/index.html")),
    ("/assets/app.js", "text/javascript; charset=utf-8", include_bytes!("../../web/assets/app.js")),
    ("/assets/app.css", "text/css; charset=utf-8", include_bytes!("../../web/assets/app.css")),
    (
        "/assets/cytoscape.min.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../web/assets/vendor/cytoscape.min.js"),
    ),
];

/// The page's files as (path, content type, bytes).
#[pyfunction]
pub(crate) fn _page_files(py: Python<'_>) -> Vec<(&'static str, &'static str, Bound<'_, PyBytes>)> {
    FILES.iter().map(|&(path, kind, body)| (path, kind, PyBytes::new(py, body))).collect()
}
