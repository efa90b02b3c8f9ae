import GeoNewsServer
import XCTest

/// Whom a request stands for behind `--trusted-proxy`: the forwarded client from a trusted
/// peer, the peer itself from anyone else, and never an address a client made up.
final class TrustedProxiesTests: XCTestCase {
    private func proxies(_ blocks: String...) throws -> TrustedProxies {
        TrustedProxies(try blocks.map { try XCTUnwrap(TrustedProxies.Block(parsing: $0[...]), $0) })
    }

    func testBlocksParseOnlyAddressesAndPrefixesInRange() throws {
        for good in ["10.0.0.0/8", "127.0.0.1", "192.168.1.0/24", "fd00::/8", "::1", "2001:db8::/32", "0.0.0.0/0", "::/0"] {
            XCTAssertNotNil(TrustedProxies.Block(parsing: good[...]), good)
        }
        for bad in [
            "", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/ 8", "::/129", "10.0.0/8", "example.org", "10.0.0.0/8/8",
            "10.0.0.0/0008", String(repeating: "1", count: 100),
        ] {
            XCTAssertNil(TrustedProxies.Block(parsing: bad[...]), bad)
        }
        XCTAssertEqual(try XCTUnwrap(TrustedProxies.Block(parsing: "10.1.2.3/8")).description, "10.1.2.3/8")
    }

    func testAPeerThatIsNotTrustedIsTheClientWhateverItsHeadersSay() throws {
        let trusted = try proxies("10.0.0.0/8")
        XCTAssertEqual(trusted.client(peer: "203.0.113.9", forwarded: "for=198.51.100.1", forwardedFor: "198.51.100.2"), "203.0.113.9")
        XCTAssertEqual(TrustedProxies().client(peer: "10.0.0.1", forwarded: nil, forwardedFor: "198.51.100.2"), "10.0.0.1")
    }

    func testFromATrustedProxyTheRightmostUntrustedForwardedAddressIsTheClient() throws {
        let trusted = try proxies("10.0.0.0/8", "fd00::/8")
        // A client that sends its own X-Forwarded-For gets it kept on the left: only what the
        // trusted proxy appended counts.
        XCTAssertEqual(trusted.client(peer: "10.0.0.1", forwarded: nil, forwardedFor: "1.2.3.4, 198.51.100.7"), "198.51.100.7")
        XCTAssertEqual(trusted.client(peer: "10.0.0.1", forwarded: nil, forwardedFor: "198.51.100.7, 10.0.0.2"), "198.51.100.7")
        XCTAssertEqual(
            trusted.client(
                peer: "10.0.0.1", forwarded: #"for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711""#,
                forwardedFor: "1.1.1.1"),
            "2001:db8:cafe::17", "Forwarded wins over X-Forwarded-For")
        XCTAssertEqual(trusted.client(peer: "10.0.0.1", forwarded: "for=192.0.2.60:8080", forwardedFor: nil), "192.0.2.60")
        XCTAssertEqual(
            trusted.client(peer: "::ffff:10.0.0.1", forwarded: nil, forwardedFor: "198.51.100.7"), "198.51.100.7", "a mapped IPv4 peer")
        XCTAssertEqual(trusted.client(peer: "fd00::5", forwarded: "For=\"[fd00::6]\", for=198.51.100.8", forwardedFor: nil), "198.51.100.8")
    }

    func testANameThatIsNotAnAddressStopsTheWalkAtThePeer() throws {
        let trusted = try proxies("10.0.0.0/8")
        XCTAssertEqual(trusted.client(peer: "10.0.0.1", forwarded: "for=unknown", forwardedFor: nil), "10.0.0.1")
        XCTAssertEqual(trusted.client(peer: "10.0.0.1", forwarded: "for=_hidden", forwardedFor: nil), "10.0.0.1")
        XCTAssertEqual(trusted.client(peer: "10.0.0.1", forwarded: nil, forwardedFor: "<script>, 198.51.100.7"), "198.51.100.7")
        XCTAssertEqual(trusted.client(peer: "10.0.0.1", forwarded: nil, forwardedFor: "198.51.100.7, garbage"), "10.0.0.1")
        XCTAssertEqual(trusted.client(peer: "10.0.0.1", forwarded: nil, forwardedFor: ""), "10.0.0.1")
        XCTAssertEqual(
            trusted.client(peer: "10.0.0.1", forwarded: nil, forwardedFor: "10.0.0.3, 10.0.0.2"), "10.0.0.3", "all trusted: the leftmost")
    }

    func testAHugeChainIsCutToItsRightmostHops() throws {
        let trusted = try proxies("10.0.0.0/8")
        let chain = Array(repeating: "10.0.0.9", count: 10_000).joined(separator: ",") + ",198.51.100.7"
        XCTAssertEqual(trusted.client(peer: "10.0.0.1", forwarded: nil, forwardedFor: chain), "198.51.100.7")
    }

    func testTheConfigurationRefusesABlockThatDoesNotParse() {
        var configuration = ServerConfiguration.defaults
        configuration.trustedProxies = ["10.0.0.0/8", "10.0.0.0/40"]
        XCTAssertThrowsError(try configuration.validate()) { error in
            XCTAssertEqual("\(error)", "trusted proxy '10.0.0.0/40' is not an address or a CIDR block (such as 10.0.0.0/8 or fd00::/8)")
        }
        configuration.trustedProxies = ["10.0.0.0/8", "::1"]
        XCTAssertNoThrow(try configuration.validate())
        XCTAssertEqual(configuration.proxies.blocks.count, 2)
    }
}
