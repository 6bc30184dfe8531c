// The environment a run sees (the process's, or a test's), passed down from the one module that
// reads process.env (cli/factory.ts); nothing in core reads process.env itself.
export type Env = Readonly<Record<string, string | undefined>>;
