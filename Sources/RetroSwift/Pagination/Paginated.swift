/// The items of a paginated endpoint as an `AsyncSequence`, fetching each page only when the items before it are
/// used up.
///
/// ```swift
/// let gists = Paginated(api.publicGists, from: GistsRequest(perPage: 30), by: .pageNumber(\.page, pageSize: \.perPage, items: \.self))
/// for try await gist in gists.prefix(45) {   // two requests: pages 1 and 2
///     print(gist.id)
/// }
/// ```
///
/// - Nothing is fetched until iteration starts, and a page only when the previous one is used up: `prefix(_:)`,
///   `first(where:)`, `break` and task cancellation stop fetching at once, and no request is sent for a page
///   nobody reads.
/// - Each page is an ordinary call of the endpoint: the domain's interceptors (retries, auth), redirect policy and
///   mocks apply, and a mocked endpoint walks its mock.
/// - A failing page ends the walk with ``PaginationError``, which names the page's position and holds the error.
/// - Each iteration has its own state, so two walks of one value run independently; only one page is held at a
///   time.
/// - ``pages`` gives whole responses instead of items.
public struct Paginated<Request: Sendable, Response: Sendable, Item>: AsyncSequence {
    /// Fetches one page: the endpoint, or any function of the same shape.
    typealias Fetch = (Request) async throws -> Response

    let fetch: Fetch
    let first: Request
    let pagination: Pagination<Request, Response, Item>

    /// The items of `endpoint`, walked from `first` by `pagination`.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint, such as `api.publicGists`, or any function of the same shape.
    ///   - first: The request for the first page.
    ///   - pagination: How pages follow one another.
    public init(
        _ endpoint: @escaping (Request) async throws -> Response, from first: Request, by pagination: Pagination<Request, Response, Item>
    ) {
        self.fetch = endpoint
        self.first = first
        self.pagination = pagination
    }

    /// Fetches the page that `request` asks for and reads its items: the one place a walk sends a request, so every
    /// way of walking stops on cancellation and reports failures the same way.
    ///
    /// - Throws: `CancellationError` when the task is cancelled; ``PaginationError`` at `position` for anything else.
    func fetchPage(
        _ request: Request, at position: Int, isolation actor: isolated (any Actor)?
    ) async throws -> (response: Response, items: [Item]) {
        do {
            try Task.checkCancellation()
            let response = try await fetch(request)
            return (response, try pagination.items(response))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw PaginationError(page: position, underlyingError: error)
        }
    }

    /// The whole responses, one per page, fetched as they are used.
    public var pages: Pages {
        Pages(items: self)
    }

    /// Starts a walk from the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: Pages.Iterator(items: self))
    }

    /// Walks the items, a page at a time.
    public struct Iterator: AsyncIteratorProtocol {
        var pages: Pages.Iterator
        var buffer: [Item] = []
        var position = 0

        /// The next item, fetching the next page when this one is used up; `nil` after the last page.
        ///
        /// - Returns: The item, or `nil` at the end.
        /// - Throws: ``PaginationError`` when a page cannot be fetched or read; `CancellationError` when the task is
        ///   cancelled before a fetch.
        public mutating func next() async throws -> Item? {
            try await next(isolation: nil)
        }

        /// The next item, fetched from the caller's actor, so neither the iterator nor the endpoint leaves it.
        ///
        /// - Parameter actor: The caller's actor, passed by `for try await`.
        /// - Returns: The item, or `nil` at the end.
        /// - Throws: As ``next()``.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Item? {
            while position == buffer.count {
                guard let page = try await pages.nextPage(isolation: actor) else { return nil }
                buffer = page.items
                position = 0
            }
            defer { position += 1 }
            return buffer[position]
        }
    }

    /// The pages of a ``Paginated``, as whole responses.
    public struct Pages: AsyncSequence {
        let items: Paginated

        /// Starts a walk from the first page.
        public func makeAsyncIterator() -> Iterator {
            Iterator(items: items)
        }

        /// Walks the pages.
        public struct Iterator: AsyncIteratorProtocol {
            let items: Paginated
            var request: Request?
            /// The zero-based number of the next page, for errors.
            var index = 0
            /// Why there is no next page although the last one said there is (a next link to another origin): thrown
            /// on the next call, once the items already fetched have been used.
            var failure: PaginationError?

            init(items: Paginated) {
                self.items = items
                self.request = items.first
            }

            /// The next page, or `nil` after the last.
            ///
            /// - Returns: The response, or `nil` at the end.
            /// - Throws: ``PaginationError`` when the page cannot be fetched or read; `CancellationError` when the task
            ///   is cancelled before a fetch.
            public mutating func next() async throws -> Response? {
                try await nextPage(isolation: nil)?.response
            }

            /// The next page, fetched from the caller's actor.
            ///
            /// - Parameter actor: The caller's actor, passed by `for try await`.
            /// - Returns: The response, or `nil` at the end.
            /// - Throws: As ``next()``.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Response? {
                try await nextPage(isolation: actor)?.response
            }

            mutating func nextPage(isolation actor: isolated (any Actor)?) async throws -> (response: Response, items: [Item])? {
                if let failure {
                    self.failure = nil
                    throw failure
                }
                guard let current = request else { return nil }
                // Ending here keeps a later next() from fetching again after an error.
                request = nil
                let page = index
                index += 1
                let (response, pageItems) = try await items.fetchPage(current, at: page, isolation: actor)
                do {
                    request = try items.pagination.next(current, response, pageItems)
                } catch {
                    failure = PaginationError(page: page + 1, underlyingError: error)
                }
                return (response, pageItems)
            }
        }
    }
}
