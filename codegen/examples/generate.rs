//! Prints the Rust generated from a manifest, or its diagnostics: `cargo run --example generate -- tools.yaml`.
fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tools.yaml".into());
    let text = std::fs::read_to_string(&path).expect("readable manifest");
    let source = mcp_contract_codegen::Source::new(path, text);
    match mcp_contract_codegen::load(&source) {
        Ok(loaded) => print!("{}", loaded.contract.rust_module()),
        Err(d) => eprintln!("{}", mcp_contract_codegen::render_all(&d, &source)),
    }
}
