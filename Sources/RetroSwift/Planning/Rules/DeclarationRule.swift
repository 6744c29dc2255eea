/// One rule a declaration must meet, checked once when its endpoint is planned (swift-argument-parser's
/// `Validators/` are the model): each rule reads the declaration as far as the rules before it have understood it,
/// adds what it understands, and reports what is wrong, with how to fix it.
///
/// ``RequestPlanner/rules`` runs them in order; a mistake never stops the rules after it, so a declaration's mistakes
/// are all reported at once.
protocol DeclarationRule: Sendable {
    /// Checks `draft`, reporting each mistake on it and recording what later rules and the plan need.
    func check(_ draft: inout DeclarationDraft)
}
