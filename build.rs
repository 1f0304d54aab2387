fn main() {
    mcp_contract_codegen::compile("tools.yaml");
}
