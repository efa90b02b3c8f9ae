#if canImport(Glibc)
import Glibc
#endif

/// Plain-text tables on standard output, and the flat figures file the peers script reads.
struct Table {
    let title: String
    let columns: [String]
    var rows: [[String]] = []

    init(_ title: String, columns: [String]) {
        self.title = title
        self.columns = columns
    }

    mutating func add(_ cells: String...) { rows.append(cells) }

    func print() {
        let widths = columns.indices.map { c in
            ([columns[c]] + rows.map { c < $0.count ? $0[c] : "" }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, text in
                // First column left-aligned (labels), numbers right-aligned.
                c == 0 ? text.padding(toLength: widths[c]) : text.leftPadding(toLength: widths[c])
            }.joined(separator: "  ")
        }
        Swift.print("\n== \(title)")
        Swift.print(line(columns))
        Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for r in rows { Swift.print(line(r + Array(repeating: "", count: max(0, columns.count - r.count)))) }
        // Tables come minutes apart; show each as it is done even when piped.
        fflush(nil)
    }
}

extension String {
    func padding(toLength n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
    func leftPadding(toLength n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}

/// A number with a fixed count of decimals (no Foundation formatting, locale-free).
func fixed(_ x: Double, _ decimals: Int) -> String {
    guard x.isFinite else { return "\(x)" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let r = (abs(x) * scale).rounded()
    let whole = Int(r / scale), frac = Int(r - Double(whole) * scale)
    let sign = x < 0 && r != 0 ? "-" : ""
    guard decimals > 0 else { return sign + "\(whole)" }
    let f = String(frac)
    return sign + "\(whole)." + String(repeating: "0", count: decimals - f.count) + f
}

/// Integers with thin grouping: 10000000 → "10,000,000".
func grouped(_ n: Int) -> String {
    let digits = String(abs(n))
    var out = ""
    for (i, ch) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(ch)
    }
    return (n < 0 ? "-" : "") + out
}

/// Figures by name, written as one flat JSON object for the peers script.
final class Figures {
    private(set) var values: [(String, Double)] = []

    func record(_ name: String, _ value: Double) { values.append((name, value)) }

    func json() -> String {
        let body = values.map { name, v in "  \"\(name)\": \(v.isFinite ? "\(v)" : "null")" }
        return "{\n" + body.joined(separator: ",\n") + "\n}\n"
    }
}
