package io.rekey.hbase;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import io.rekey.verify.CellDigest;
import io.rekey.write.WriteStats;
import io.rekey.write.WrittenFile;
import org.apache.spark.serializer.KryoRegistrator;

/**
 * Registers what our Spark stages move with Kryo. The hot shuffle types are plain classes that Kryo
 * writes field by field; records (task results, digests) go through Java serialization, because
 * Spark's Kryo 4 cannot rebuild records.
 */
public final class KryoSetup implements KryoRegistrator {
  @Override
  public void registerClasses(Kryo kryo) {
    kryo.register(byte[].class);
    kryo.register(WriteStats.class, new JavaSerializer());
    kryo.register(WrittenFile.class, new JavaSerializer());
    kryo.register(CellDigest.class, new JavaSerializer());
  }
}
