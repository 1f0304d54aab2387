fn main() {
    mcp_contract_codegen::Builder::new()
        .readme("README.md")
        .docs("docs/tools.md")
        .distribution("dist")
        .compile();
}
