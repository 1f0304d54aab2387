//! Prints the documents generated from a manifest: `cargo run --example docs -- tools.yaml [table|reference]`.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| "tools.yaml".into());
    let which = args.next().unwrap_or_else(|| "reference".into());
    let text = std::fs::read_to_string(&path).expect("readable manifest");
    let source = mcp_contract_codegen::Source::new(path, text);
    match mcp_contract_codegen::load(&source) {
        Ok(loaded) if which == "table" => print!("{}", loaded.contract.readme_table()),
        Ok(loaded) => print!("{}", loaded.contract.reference()),
        Err(d) => eprintln!("{}", mcp_contract_codegen::render_all(&d, &source)),
    }
}
