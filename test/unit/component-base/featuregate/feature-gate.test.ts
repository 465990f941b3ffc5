import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FeatureGate } from '../../../../apiserver/component-base/featuregate/feature-gate.js';
import { proxyCommand } from '../../../../apiserver/frontdoor/options.js';
import { apiserverCommand } from '../../../../apiserver/server/options.js';
import { controllerManagerCommand } from '../../../../controllers/app/options.js';

const gates = () =>
  new FeatureGate({
    AlphaThing: { default: false, preRelease: 'ALPHA' },
    BetaThing: { default: true, preRelease: 'BETA' },
    DoneThing: { default: true, preRelease: 'GA', lockToDefault: true },
    OpenGA: { default: true, preRelease: 'GA' },
    OldThing: { default: false, preRelease: 'Deprecated' },
  });

describe('FeatureGate', () => {
  it('starts from each stage’s default and applies key=value lists', () => {
    const g = gates();
    assert.equal(g.enabled('AlphaThing'), false);
    assert.equal(g.enabled('BetaThing'), true);
    assert.equal(g.enabled('DoneThing'), true);
    g.set('AlphaThing=true, BetaThing=false');
    assert.equal(g.enabled('AlphaThing'), true);
    assert.equal(g.enabled('BetaThing'), false);
    assert.deepEqual(g.warnings, []);
  });

  it('refuses unknown names, missing or bad values and locked gates with Kubernetes’ messages', () => {
    assert.throws(() => gates().set('Nope=true'), { message: 'unrecognized feature gate: Nope' });
    assert.throws(() => gates().set('AlphaThing'), { message: 'missing bool value for AlphaThing' });
    assert.throws(() => gates().set('AlphaThing=yes'), {
      message: 'invalid value of AlphaThing=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    });
    assert.throws(() => gates().set('DoneThing=false'), {
      message: 'cannot set feature gate DoneThing to false, feature is locked to true',
    });
    // A refused list changes nothing.
    const g = gates();
    assert.throws(() => g.set('AlphaThing=true,Nope=true'));
    assert.equal(g.enabled('AlphaThing'), false);
  });

  it('warns when GA or deprecated gates are set', () => {
    const g = gates();
    g.set('DoneThing=true,OpenGA=false,OldThing=true');
    assert.equal(g.enabled('OpenGA'), false);
    assert.deepEqual(g.warnings, [
      'Setting GA feature gate DoneThing=true. It will be removed in a future release.',
      'Setting GA feature gate OpenGA=false. It will be removed in a future release.',
      'Setting deprecated feature gate OldThing=true. It will be removed in a future release.',
    ]);
  });

  it('AllAlpha and AllBeta set a whole stage, except gates the same list sets', () => {
    const g = gates();
    g.set('AllAlpha=true,AllBeta=false,BetaThing=true');
    assert.equal(g.enabled('AlphaThing'), true);
    assert.equal(g.enabled('BetaThing'), true);
    assert.equal(g.enabled('DoneThing'), true);
  });

  it('lists alpha and beta gates for --help, not GA or deprecated ones', () => {
    assert.deepEqual(gates().knownFeatures(), [
      'AllAlpha=true|false (ALPHA - default=false)',
      'AllBeta=true|false (BETA - default=false)',
      'AlphaThing=true|false (ALPHA - default=false)',
      'BetaThing=true|false (BETA - default=true)',
    ]);
  });
});

describe('--feature-gates on every binary', () => {
  const requiredFlags = new Map<string, string[]>([
    [controllerManagerCommand.name, ['--kubeconfig=k']],
    [proxyCommand.name, ['--tls-cert-file=s.crt', '--tls-private-key-file=s.key', '--backend-ca-file=ca.crt', '--backends=https://a:6443']],
  ]);
  for (const command of [apiserverCommand, controllerManagerCommand, proxyCommand]) {
    const required = requiredFlags.get(command.name) ?? [];
    it(`${command.name}: repeated flags add up; a locked GA gate turned off fails with the spec’s message`, () => {
      const o = command.options([...required, '--feature-gates=ConsistentListFromCache=false', '--feature-gates=APIListChunking=false']);
      assert.equal(o.featureGates.enabled('ConsistentListFromCache'), false);
      assert.equal(o.featureGates.enabled('APIListChunking'), false);
      assert.equal(o.featureGates.enabled('ServerSideApply'), true);
      assert.throws(() => command.options([...required, '--feature-gates=ServerSideApply=false']), {
        message:
          'invalid argument "ServerSideApply=false" for "--feature-gates" flag: cannot set feature gate ServerSideApply to false, feature is locked to true',
      });
      assert.throws(() => command.options([...required, '--feature-gates=NoSuchGate=true']), {
        message: 'invalid argument "NoSuchGate=true" for "--feature-gates" flag: unrecognized feature gate: NoSuchGate',
      });
      assert.match(command.usage(), /--feature-gates mapStringBool +A set of key=value pairs/);
      assert.match(command.usage(), /ConsistentListFromCache=true\|false \(BETA - default=true\)/);
    });
  }
});
