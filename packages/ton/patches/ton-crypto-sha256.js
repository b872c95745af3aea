"use strict";
/**
 * Copyright (c) Whales Corp.
 * All Rights Reserved.
 *
 * This source code is licensed under the MIT license found in the
 * LICENSE file in the root directory of this source tree.
 *
 * starsgate: @ton/crypto 3.3.0's dist/primitives/sha256.js with `sha256_sync` on node:crypto where
 * the process is Node (packages/ton/patches/README.md); jssha elsewhere (a browser bundle), as
 * published. `sha256_sync.native` tells the start-up self-check which one runs.
 */
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.sha256 = exports.sha256_fallback = exports.sha256_sync = void 0;
const jssha_1 = __importDefault(require("jssha"));
const crypto_primitives_1 = require("@ton/crypto-primitives");
const nodeProcess = globalThis.process;
const nodeCrypto = nodeProcess && typeof nodeProcess.getBuiltinModule === 'function' ? nodeProcess.getBuiltinModule('node:crypto') : undefined;
function sha256_sync(source) {
    if (nodeCrypto) {
        return nodeCrypto.createHash('sha256').update(typeof source === 'string' ? Buffer.from(source, 'utf-8') : source).digest();
    }
    let src;
    if (typeof source === 'string') {
        src = Buffer.from(source, 'utf-8').toString('hex');
    }
    else {
        src = source.toString('hex');
    }
    let hasher = new jssha_1.default('SHA-256', 'HEX');
    hasher.update(src);
    let res = hasher.getHash('HEX');
    return Buffer.from(res, 'hex');
}
exports.sha256_sync = sha256_sync;
Object.defineProperty(sha256_sync, 'native', { value: nodeCrypto !== undefined });
async function sha256_fallback(source) {
    return sha256_sync(source);
}
exports.sha256_fallback = sha256_fallback;
function sha256(source) {
    return (0, crypto_primitives_1.sha256)(source);
}
exports.sha256 = sha256;
