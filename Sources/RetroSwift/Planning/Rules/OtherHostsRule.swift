/// `otherHosts:` names host names only.
struct OtherHostsRule: DeclarationRule {
    func check(_ draft: inout DeclarationDraft) {
        for host in draft.declaration.otherHosts.malformedHosts {
            draft.report(
                "otherHosts lists '\(host)', which is not a host name",
                fix: "list host names only, such as 'cdn.example.com', without scheme, port or path"
            )
        }
    }
}
