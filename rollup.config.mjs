import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import { dts } from 'rollup-plugin-dts';

// Runtime dependencies stay external: the app's bundler de-duplicates them.
const external = (id) => /^(ws|eventemitter3|zod|react)(\/|$)/.test(id);
const input = { index: 'src/index.ts', protocol: 'src/protocol/index.ts', react: 'src/react/index.ts' };

export default [
  {
    input,
    external,
    plugins: [
      nodeResolve(),
      typescript({
        tsconfig: './tsconfig.build.json',
        declaration: false,
        sourceMap: true,
        module: 'ESNext',
        moduleResolution: 'Bundler',
      }),
    ],
    output: [
      {
        dir: 'dist',
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        sourcemap: true,
      },
      {
        dir: 'dist',
        format: 'cjs',
        entryFileNames: '[name].cjs',
        chunkFileNames: 'chunks/[name]-[hash].cjs',
        sourcemap: true,
      },
    ],
  },
  {
    input,
    external,
    plugins: [dts({ tsconfig: './tsconfig.build.json' })],
    output: [
      { dir: 'dist', format: 'es', entryFileNames: '[name].d.ts', chunkFileNames: 'chunks/[name]-[hash].d.ts' },
      { dir: 'dist', format: 'es', entryFileNames: '[name].d.cts', chunkFileNames: 'chunks/[name]-[hash].d.cts' },
    ],
  },
];
