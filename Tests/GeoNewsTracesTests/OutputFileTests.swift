import Foundation
import XCTest

@testable import GeoNewsTraces

/// A run's output file: an old, larger file is emptied before the new rows land (whatever
/// arrived while it was being emptied comes first, in order), and a run never writes over
/// one of its own inputs.
final class OutputFileTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: folder) }

    /// `rows` CSV lines of positions inside BoxResolver's boxes and out at sea.
    private func input(rows: Int) -> String {
        var text = "id,lat,lon\n"
        for i in 0..<rows { text += "\(i),\(Double(i % 20) - 9.5),\(Double(i % 30) - 5.25)\n" }
        return text
    }

    private func run(_ input: URL, to output: URL) throws -> BatchSummary {
        try BatchResolver(resolver: BoxResolver()).run(inputs: [.file(input.path)], output: .file(output.path))
    }

    func testAnOldLargerOutputIsReplacedByExactlyTheNewRows() throws {
        let source = folder.appendingPathComponent("in.csv"), output = folder.appendingPathComponent("out.csv")
        // More than the bytes held while the old file is emptied, so both paths are taken.
        try input(rows: 300_000).write(to: source, atomically: false, encoding: .utf8)
        let expected = try resolveBatch(input(rows: 300_000)) { $0.followsTraces = false }.text
        XCTAssertGreaterThan(expected.utf8.count, OutputFile.heldLimit)
        let old = Data(repeating: UInt8(ascii: "#"), count: expected.utf8.count * 2)
        for _ in 0..<3 {
            try old.write(to: output)
            let summary = try run(source, to: output)
            XCTAssertEqual(summary.recordsRead, 300_000)
            let written = try Data(contentsOf: output)
            XCTAssertEqual(written.count, expected.utf8.count)
            XCTAssert(written == Data(expected.utf8), "the output is not exactly the new rows")
        }
        // A small run over the large output it just wrote.
        try input(rows: 3).write(to: source, atomically: false, encoding: .utf8)
        _ = try run(source, to: output)
        XCTAssertEqual(try String(contentsOf: output, encoding: .utf8), try resolveBatch(input(rows: 3)) { $0.followsTraces = false }.text)
    }

    func testARunRefusesToWriteOverItsOwnInput() throws {
        let source = folder.appendingPathComponent("fixes.csv")
        let text = input(rows: 5)
        try text.write(to: source, atomically: false, encoding: .utf8)
        let link = folder.appendingPathComponent("link.csv"), hard = folder.appendingPathComponent("hard.csv")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: source)
        try FileManager.default.linkItem(at: source, to: hard)
        for output in [source.path, link.path, hard.path, folder.path + "/./fixes.csv"] {
            XCTAssertThrowsError(try BatchResolver(resolver: BoxResolver()).run(inputs: [.file(source.path)], output: .file(output))) {
                guard case .usage(let message) = $0 as? BatchResolveError else { return XCTFail("\($0)") }
                XCTAssert(message.contains(output) && message.contains("is the input"), message)
            }
            XCTAssertEqual(try String(contentsOf: source, encoding: .utf8), text, "the input was touched through \(output)")
        }
        // Another file beside it is fine.
        XCTAssertEqual(try run(source, to: folder.appendingPathComponent("out.csv")).recordsRead, 5)
    }
}
