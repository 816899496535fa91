// opencc-js 1.4 ships its dictionaries as ES modules without types: each is one string, `from to|from to|…`.
declare module 'opencc-js/dict/*' {
  const dict: string;
  export default dict;
}
