/// A rule that a mapped structure keeps (a cell tree's leaves, the coast grid, the catalogue),
/// named as its broken rules are printed.
package protocol InvariantRule: RawRepresentable, Sendable where RawValue == String {
    /// What the rules are of, printed before a broken rule's name ("coast grid"); empty for none.
    static var subject: String { get }
}

/// The first broken rule of a structure, where, and how: what `verify()`, `geonews-index
/// --check` and the debug checks after a load report, and what the invariant tests break on
/// purpose.
package struct InvariantProblem<Rule: InvariantRule>: Error, CustomStringConvertible, Sendable {
    package let rule: Rule
    package let detail: String

    package init(rule: Rule, detail: String) {
        self.rule = rule
        self.detail = detail
    }

    package var description: String { (Rule.subject.isEmpty ? "" : Rule.subject + ", ") + "\(rule.rawValue): \(detail)" }
}
