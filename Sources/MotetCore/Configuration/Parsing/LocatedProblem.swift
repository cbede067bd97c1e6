/// A problem and where it was found; rendered into a ``UsageError`` at the public boundary.
struct LocatedProblem: Error {
    var problem: ParseProblem
    var location: ProblemLocation

    init(_ problem: ParseProblem, at location: ProblemLocation) {
        self.problem = problem
        self.location = location
    }

    var usageError: UsageError { MessageRenderer.render(problem, at: location) }
}
