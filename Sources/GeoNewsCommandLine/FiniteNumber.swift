/// A number option read as a finite `Double`.
///
/// ArgumentParser's own `Double` reading turns `1e400` into infinity, so a later range check
/// would echo `inf` instead of what the user typed. As an option's `transform:`, this refuses
/// it at parse time, and ArgumentParser's message quotes the text:
/// `The value '1e400' is invalid for '--radius <radius>': not a finite number`.
public enum FiniteNumber {
    /// The finite number `text` spells (decimal, with optional sign and exponent).
    ///
    /// - Throws: ``Refusal`` for text that is not a number, or that is NaN or out of range.
    public static func parse(_ text: String) throws(Refusal) -> Double {
        guard let value = Double(text) else { throw .notANumber }
        guard value.isFinite else { throw .notFinite }
        return value
    }

    /// Why an option value is not a finite number (ArgumentParser puts the value in front).
    public enum Refusal: Error, CustomStringConvertible {
        case notANumber
        case notFinite

        public var description: String {
            switch self {
            case .notANumber: return "not a number"
            case .notFinite: return "not a finite number"
            }
        }
    }
}
