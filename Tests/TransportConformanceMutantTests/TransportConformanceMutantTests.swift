import Foundation
import RetroSwift
import RetroSwiftTestServer
import Testing

/// Proof that the transport conformance suite can fail: every mutant — a shipped transport with one rule broken — is
/// run through the cases it names, on URLSessionTransport and (with its trait) AsyncHTTPClientTransport, and each of
/// them must fail. A case that is a known limitation of the transport underneath, or passes there whatever a mutant does,
/// proves nothing there and is skipped; at least one case must remain, on one base at least.
/// Serialized, as the conformance suite is: the cases time cancellations and timeouts.
@Suite("Transport conformance mutants", .timeLimit(.minutes(5)), .serialized)
struct TransportConformanceMutantTests {
    /// Long enough for a case to fail by its own bounds (a few seconds: the timeout cases wait up to 3 s into a
    /// silence, and their steady transfers take 4 s), short enough that a mutant that hangs a case fails it quickly.
    static let caseTimeLimit = Duration.seconds(20)

    /// The cases that must fail against `mutant` on `base`: those it names, less the base's known limitations and the
    /// cases that pass there whatever a mutant does.
    static func killers(of mutant: Mutant, on base: MutantBase) -> [TransportConformanceCase] {
        let skipped = base.inertCases
        return TransportConformance.cases.filter {
            mutant.killers.contains($0.id) && base.knownLimitations[$0.id] == nil && !skipped.contains($0.id)
        }
    }

    @Test("every mutant fails every case it names that its base passes", arguments: MutantBase.allCases, Mutant.all)
    func mutantIsKilled(base: MutantBase, mutant: Mutant) async throws {
        // Given
        let named = Set(TransportConformance.cases.map(\.id))
        #expect(mutant.killers.allSatisfy(named.contains), "\(mutant) names cases that do not exist: \(mutant.killers)")
        let killers = Self.killers(of: mutant, on: base)
        // None left on this base (its known limitations, or cases that cannot fail there): the mutant must be proved on
        // another.
        guard !killers.isEmpty else {
            let bases = MutantBase.allCases.filter { !Self.killers(of: mutant, on: $0).isEmpty }
            #expect(!bases.isEmpty, "none of the cases \(mutant) names can fail on any base: on \(base), none is left")
            return
        }

        for conformanceCase in killers {
            // When
            let outcome: Result<Void, any Error>
            do {
                try await conformanceCase.run({ mutant.make(base) }, timeLimit: Self.caseTimeLimit)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }

            // Then
            switch outcome {
            case .success:
                Issue.record("\(conformanceCase.id) passed against the mutant that \(mutant) on \(base)")
            case .failure(let error):
                #expect(error is TransportConformanceFailure, "\(conformanceCase.id) threw \(error), not a conformance failure")
            }
        }
    }

    @Test("the transport underneath, unmutated, passes every case a mutant is checked with", arguments: MutantBase.allCases)
    func baseSurvives(base: MutantBase) async throws {
        // Given: a kill proves something only when the case passes without the mutant, on the base as the mutants get it
        // (URLSession's without cookies, which the conformance tests do not run)
        let ids = Set(Mutant.all.flatMap { Self.killers(of: $0, on: base).map(\.id) })
        let cases = TransportConformance.cases.filter { ids.contains($0.id) }

        for conformanceCase in cases {
            // When
            let outcome: Result<Void, any Error>
            do {
                try await conformanceCase.run({ base.make() }, timeLimit: Self.caseTimeLimit)
                outcome = .success(())
            } catch {
                outcome = .failure(error)
            }

            // Then
            if case .failure(let error) = outcome { Issue.record("\(conformanceCase.id) fails on \(base) itself: \(error)") }
        }
    }
}
