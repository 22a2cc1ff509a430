// The errors domain modules raise on purpose: a stable code from the module's own vocabulary, a
// message for people and details for programs. Domain modules know neither GraphQL nor Koa: each
// edge maps these to its own shape once (GraphQL: src/graphql/errors.ts; the command line prints
// the message).
export class DomainError<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}
