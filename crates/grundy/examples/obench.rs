#![allow(missing_docs, clippy::print_stdout)]
use gamegraph_grundy::octal::{Config, OctalCode, analyse_octal};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code: OctalCode = args[1].parse().unwrap();
    let n: usize = args[2].parse().unwrap();
    let t = std::time::Instant::now();
    let config = Config { limit: n + 1, ..Config::default() };
    let a = analyse_octal(&code, &config, &mut |_| {}).unwrap();
    let h =
        a.prefix().iter().fold(0u64, |h, &v| h.wrapping_mul(1_000_003).wrapping_add(u64::from(v)));
    println!(
        "{} g({n}) = {} hash {h:x} {:.2}s",
        args[1],
        a.value(n as u64).unwrap(),
        t.elapsed().as_secs_f64()
    );
}
