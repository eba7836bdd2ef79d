#!/usr/bin/env node
import { program } from './program.ts';

await program().parseAsync(process.argv);
