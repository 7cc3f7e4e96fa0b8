//! The page, its scripts and its example inputs, embedded in the binary.

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

const INDEX: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");
const CYTOSCAPE: &str = include_str!("../assets/vendor/cytoscape.min.js");
const CYTOSCAPE_LICENSE: &str = include_str!("../assets/vendor/LICENSE-cytoscape");

/// Example game graphs for the graph view: the repository's own fixtures.
const GRAPHS: &[(&str, &str)] = &[
    ("a 3-cycle with an exit (a draw)", include_str!("../../../fixtures/retro/seed.txt")),
    ("pairs of 2-cycles", include_str!("../../../fixtures/retro/two-cycles.txt")),
    ("a long forced win", include_str!("../../../fixtures/retro/long-path.txt")),
    ("self-loops", include_str!("../../../fixtures/retro/self-loops.txt")),
    ("random, with cycles", include_str!("../../../fixtures/retro/gen-loops.txt")),
    ("random, acyclic", include_str!("../../../fixtures/retro/gen-acyclic.txt")),
    ("random, larger", include_str!("../../../fixtures/retro/gen-larger.txt")),
];

/// Example digraphs for the kernel view.
const KERNELS: &[(&str, &str)] = &[
    ("a 6-cycle (two kernels)", include_str!("../../../fixtures/kernel/six-cycle.txt")),
    ("a 5-cycle (no kernel)", include_str!("../../../fixtures/kernel/five-cycle.txt")),
    ("a triangle with an exit", include_str!("../../../fixtures/kernel/odd-with-exit.txt")),
    ("a bipartite grid", include_str!("../../../fixtures/kernel/bipartite-grid.txt")),
    ("two cycles", include_str!("../../../fixtures/kernel/two-cycles.txt")),
    ("random, 20 vertices", include_str!("../../../fixtures/kernel/random-20-100.txt")),
];

fn asset(kind: &'static str, body: &'static str) -> impl IntoResponse + Clone {
    ([(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")], body)
}

/// A fixture as an example: without the comment lines meant for the repository's
/// maintainers ("generated …, do not edit").
fn example_text(text: &str) -> String {
    text.lines()
        .filter(|l| !(l.starts_with('#') && l.contains("do not edit")))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn examples() -> String {
    let list = |items: &[(&str, &str)]| -> Vec<serde_json::Value> {
        items
            .iter()
            .map(|(name, text)| serde_json::json!({ "name": name, "text": example_text(text) }))
            .collect()
    };
    serde_json::json!({ "graphs": list(GRAPHS), "kernels": list(KERNELS) }).to_string()
}

pub(crate) fn routes() -> Router {
    const JS: &str = "text/javascript; charset=utf-8";
    let json = examples();
    Router::new()
        .route("/", get(asset("text/html; charset=utf-8", INDEX)))
        .route("/assets/app.js", get(asset(JS, APP_JS)))
        .route("/assets/app.css", get(asset("text/css; charset=utf-8", APP_CSS)))
        .route("/assets/cytoscape.min.js", get(asset(JS, CYTOSCAPE)))
        .route(
            "/assets/LICENSE-cytoscape",
            get(asset("text/plain; charset=utf-8", CYTOSCAPE_LICENSE)),
        )
        .route("/assets/examples.json", get(([(header::CONTENT_TYPE, "application/json")], json)))
        .route(
            "/assets/games.json",
            get((
                [(header::CONTENT_TYPE, "application/json")],
                serde_json::to_string(gamegraph_play::ENTRIES).expect("the registry as JSON"),
            )),
        )
}
