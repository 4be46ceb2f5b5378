package io.rekey.spark;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import org.apache.spark.serializer.KryoRegistrator;

/**
 * Sets Kryo up for what our Spark stages move. The hot shuffle types are plain classes and byte
 * arrays that Kryo writes field by field; every record (task results, digests, written files) goes
 * through Java serialization, because Spark's Kryo 4 cannot rebuild records. One default serializer
 * for {@link Record} covers them all, so this class names none of the stages' types.
 */
public final class KryoSetup implements KryoRegistrator {
  @Override
  public void registerClasses(Kryo kryo) {
    kryo.register(byte[].class);
    kryo.addDefaultSerializer(Record.class, JavaSerializer.class);
  }
}
