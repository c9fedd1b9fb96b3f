// The goeasy package's exports map names no types, so under NodeNext resolution TypeScript finds none; the tests
// describe the part they use themselves (GoEasyStatic in support.ts).
declare module 'goeasy' {
  const GoEasy: unknown;
  export default GoEasy;
}
