import Foundation
import XCTest

/// An index file's bytes under test, with the words of its leaf section read and written in
/// place, and opened from a file of their own (removed when the test ends).
struct IndexBytes<Word: FixedWidthInteger> {
    var bytes: [UInt8]
    /// Where the leaf section starts, in bytes.
    let leaves: Int

    func word(_ i: Int) -> Word {
        Word(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: leaves + MemoryLayout<Word>.size * i, as: Word.self) })
    }

    mutating func set(_ i: Int, _ value: Word) {
        let at = leaves + MemoryLayout<Word>.size * i
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: at, as: Word.self) }
    }

    /// A file holding the bytes, for `test`.
    func file(_ test: XCTestCase) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("index-bytes-\(UUID().uuidString).bin").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }
}
