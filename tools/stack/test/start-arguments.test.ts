import { parseStartArguments } from '../src/start-arguments';

describe("npm start's arguments", () => {
  it.each([
    [[], 'source'],
    [['--from=build'], 'build'],
    [['--from', 'build'], 'build'],
    [['--from=source'], 'source'],
  ])('%j runs from %s', (argv, from) => {
    expect(parseStartArguments(argv)).toEqual({ from });
  });

  it.each([
    [['--from=dist'], /--from must be "source" or "build", not "dist"/],
    [['--form=build'], /Unknown option '--form'/],
    [['build'], /Unexpected argument 'build'/],
    [['--from'], /argument missing/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseStartArguments(argv)).toThrow(message);
  });
});
