#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses decimal numbers straight from bytes, without making a `String`.
///
/// The common GPS case (`-12.345678`, up to 19 significant digits and no exponent) takes
/// Clinger's fast path: when the digits fit in 2⁵³ and the power of ten is at most 10²², one
/// IEEE division of two exactly representable numbers is correctly rounded (Clinger 1990,
/// "How to read floating point numbers accurately"). Everything else that still looks like a
/// decimal number (exponents, long mantissas) goes to `strtod`, which rounds correctly too.
/// Words `strtod` would accept (`nan`, `inf`, hexadecimal) are rejected: they are not positions.
package enum DecimalParser {
    /// 10ⁿ for n in 0...22, every one exactly representable: a switch, which the compiler makes
    /// a table of constants, so a parse makes no call to reach it.
    @inline(__always)
    private static func exactPowerOfTen(_ n: Int) -> Double {
        switch n {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// The number in `bytes`, ignoring surrounding spaces and tabs; `nil` when it is not one.
    @inline(__always)
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let value = parsePlain(bytes) { return value }
        return parseAny(bytes)
    }

    /// The form almost every file has, `-12.345678` (a minus sign or none, digits, and a point
    /// with digits or none: at most 17 bytes, so fewer than 10¹⁷ fits the mantissa), in one
    /// pass with one test per byte. The same value as ``parseAny(_:)``'s fast path, which it
    /// leaves everything else to (`nil`): spaces, a plus sign, exponents, longer texts, and
    /// whatever is no number.
    @inline(__always)
    private static func parsePlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let (numerator, denominator) = plainFraction(bytes) else { return nil }
        return numerator / denominator
    }

    /// Two numbers of ``parsePlain(_:)``'s form, with one division for both (a division's wait
    /// is most of a number's cost); `nil` unless both are of that form.
    @inline(__always)
    package static func parsePlainPair(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> (Double, Double)? {
        guard let x = plainFraction(a), let y = plainFraction(b) else { return nil }
        // IEEE division rounds each lane as a scalar division does, and negating the numerator
        // negates the quotient exactly.
        let q = SIMD2(x.numerator, y.numerator) / SIMD2(x.denominator, y.denominator)
        return (q[0], q[1])
    }

    /// ``parsePlain(_:)``'s number as a signed mantissa and a power of ten, both exact.
    @inline(__always)
    private static func plainFraction(_ bytes: UnsafeBufferPointer<UInt8>) -> (numerator: Double, denominator: Double)? {
        guard let start = bytes.baseAddress, bytes.count <= 17 else { return nil }
        let end = start + bytes.count
        var p = start
        let negative = p < end && p.pointee == UInt8(ascii: "-")
        if negative { p += 1 }
        var mantissa: UInt64 = 0
        let integerStart = p
        while p < end {
            let digit = p.pointee &- 48
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            p += 1
        }
        let integerDigits = p - integerStart
        var fractionDigits = 0
        if p < end {
            guard p.pointee == UInt8(ascii: ".") else { return nil }
            p += 1
            let fractionStart = p
            while p < end {
                let digit = p.pointee &- 48
                guard digit < 10 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                p += 1
            }
            fractionDigits = p - fractionStart
        }
        guard integerDigits + fractionDigits > 0, mantissa <= 1 << 53 else { return nil }
        let m = Double(mantissa)
        return (negative ? -m : m, exactPowerOfTen(fractionDigits))
    }

    /// Any decimal number, with spaces and tabs around it.
    private static func parseAny(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard var p = bytes.baseAddress else { return nil }
        var end = p + bytes.count
        while p < end, p.pointee == 0x20 || p.pointee == 0x09 { p += 1 }
        while end > p, end[-1] == 0x20 || end[-1] == 0x09 { end -= 1 }
        guard p < end else { return nil }

        var q = p
        var negative = false
        if q.pointee == UInt8(ascii: "-") { negative = true; q += 1 } else if q.pointee == UInt8(ascii: "+") { q += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while q < end {
            let c = q.pointee
            if c &- 48 < 10 {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(c &- 48)
                    if mantissa != 0 { digits += 1 }
                    if seenPoint { fractionDigits += 1 }
                } else {
                    return slowPath(p, end)
                }
            } else if c == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                return slowPath(p, end)
            }
            q += 1
        }
        // A lone sign or point is not a number.
        let digitBytes = end - p - (negative || p.pointee == UInt8(ascii: "+") ? 1 : 0) - (seenPoint ? 1 : 0)
        guard digitBytes > 0 else { return nil }
        guard mantissa <= 1 << 53, fractionDigits <= 22 else { return slowPath(p, end) }
        let value = Double(mantissa) / exactPowerOfTen(fractionDigits)
        return negative ? -value : value
    }

    /// `strtod` for what the fast path declines, after checking the text is a plain decimal.
    private static func slowPath(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Double? {
        let n = end - start
        guard n < 512 else { return nil }
        var sawDigit = false
        for i in 0..<n {
            switch start[i] {
            case 48...57: sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): break
            default: return nil
            }
        }
        guard sawDigit else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { text -> Double? in
            for i in 0..<n { text[i] = CChar(bitPattern: start[i]) }
            text[n] = 0
            var stop: UnsafeMutablePointer<CChar>?
            let value = strtod(text.baseAddress!, &stop)
            guard let stop, stop == text.baseAddress! + n else { return nil }
            return value
        }
    }
}
